; passes: div-check-elim
; entry: main
; args: 100, 7
; expect: value 16
; After `if k > 0` the divisor is at least 1: both divisions lose their test (`sdiv` needs
; `k != 0` and `k != -1`, `urem` only `k != 0`). 100 / 7 = 14, 100 % 7 = 2.
fn main(x: i64, k: i64) -> i64 {
    var c: bool
    var q: i64
    var r: i64
entry:
    c = sgt k, 0
    brif c, div, skip
div:
    q = sdiv x, k
    r = urem x, k
    q = add q, r
    ret q
skip:
    ret -1
}
