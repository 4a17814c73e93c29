; passes: bounds-check-elim
; entry: main
; expect: trap index_oob
; Near miss: the push goes to `w`, a different vec (each local only holds vecs of its own
; `new`), so `n` is still `len(v)` and `v[n]` keeps its check and traps.
fn main() -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var n: i64
    var r: i64
entry:
    v = new vec<i64>
    w = new vec<i64>
    push v, 4
    n = len v
    push w, 9
    r = get v[n]
    ret r
}
