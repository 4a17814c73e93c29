; passes: div-check-elim
; entry: main
; args: -9223372036854775808, -1
; expect: value -9223372036854775808
; Under `k < 0` the `srem` loses its test (`k != 0` is all it needs) but the `sdiv` keeps
; it: `k = -1` passes `k < 0`, and `MIN / -1` must give MIN (the checked path), not fault.
; MIN % -1 = 0, so the result is MIN.
fn main(x: i64, k: i64) -> i64 {
    var c: bool
    var q: i64
    var r: i64
entry:
    c = slt k, 0
    brif c, div, skip
div:
    r = srem x, k
    q = sdiv x, k
    q = add q, r
    ret q
skip:
    ret 0
}
