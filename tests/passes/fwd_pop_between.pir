; passes: store-load-forward
; entry: main
; args: 1, 42
; expect: trap index_oob
; Near miss: a `pop` between the `set` and the `get` removes element 1, so the get must trap
; `index_oob` as at O0. Not forwarded, with a remark.
fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var y: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    set v[k], x
    pop v
    y = get v[k]
    ret y
}
