; passes: store-load-forward
; entry: main
; args: 0, 42
; expect: value 42
; A store to a vec of another element type (`w: vec<i32>`) between the `set` and the `get`
; cannot write `v`'s element (vecs of different types are different vecs), and a pop of it
; cannot shorten `v`: the `get` is forwarded from the `set`.
fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i32>
    var y: i64
    var z: i32
entry:
    v = new vec<i64>
    push v, 5
    w = new vec<i32>
    push w, 6
    push w, 8
    set v[k], x
    set w[0], 7
    z = pop w
    y = get v[k]
    ret y
}
