; passes: store-load-forward
; entry: main
; args: 0, 42
; expect: value 7
; Near miss: a store through another handle `w` of the same element type (here the same vec)
; between the `set` and the `get` writes the same element: the get reads 7, not 42. Not
; forwarded, with a remark.
fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var y: i64
entry:
    v = new vec<i64>
    push v, 5
    w = copy v
    set v[k], x
    set w[0], 7
    y = get v[k]
    ret y
}
