; passes: div-check-elim
; entry: main
; args: 5
; expect: trap div_zero
; Near miss: the constant divisor 0 (at i8) fails the test, so the `urem` keeps it and traps.
fn main(x: i64) -> i64 {
    var n: i8
    var r: i64
entry:
    n = trunc x
    n = urem n, 0
    r = sext n
    ret r
}
