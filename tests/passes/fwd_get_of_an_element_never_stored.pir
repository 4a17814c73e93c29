; passes: store-load-forward
; entry: main
; args: 1
; expect: value 17
; Gets of elements that no store wrote: `v[1]` (the killed store was `v[0]`) and `w[0]` (another
; vec). Neither is forwarded, and neither gets a "not forwarded" remark: the remark is only
; for a get whose own store was killed (`v[0]`, the last get).
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var x: i64
    var y: i64
    var z: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    w = new vec<i64>
    push w, 7
    set v[0], a
    a = add a, 100
    x = get v[1]
    y = get w[0]
    z = get v[0]
    r = add x, y
    z = sub z, a
    r = add r, z
    r = add r, 104
    ret r
}
