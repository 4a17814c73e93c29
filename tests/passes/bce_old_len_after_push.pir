; passes: bounds-check-elim
; entry: main
; expect: value 9
; `n = len v` taken before `push v` is a valid index after it: the check of `v[n]` goes.
fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 4
    n = len v
    push v, 9
    r = get v[n]
    ret r
}
