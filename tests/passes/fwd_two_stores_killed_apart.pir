; passes: store-load-forward
; entry: main
; args: 1, 2
; expect: value 3
; Two stores killed by two different instructions (their values reassigned one after the
; other): each later get's remark names its own store's cause. Killing the second store must
; not drop the record of the first.
fn main(a: i64, b: i64) -> i64 {
    var v: vec<i64>
    var y: i64
    var z: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    set v[0], a
    set v[1], b
    a = add a, 100
    b = add b, 100
    y = get v[0]
    z = get v[1]
    r = add y, z
    ret r
}
