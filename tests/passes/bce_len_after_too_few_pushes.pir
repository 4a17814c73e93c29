; passes: bounds-check-elim
; entry: main
; expect: trap index_oob
; Near miss: two pushes give `len(v) > 1` only; `v[2]` keeps its check and traps.
fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    r = get v[2]
    ret r
}
