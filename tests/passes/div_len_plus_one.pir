; passes: div-check-elim
; entry: main
; args: 17
; expect: value 8
; `k = len(v) + 1` is at least 1 (a length is never negative and cannot reach i64::MAX), so
; `x udiv k` needs no test. len(v) = 1, 17 / 2 = 8.
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var k: i64
    var q: i64
entry:
    v = new vec<i64>
    push v, 5
    n = len v
    k = add n, 1
    q = udiv x, k
    ret q
}
