; passes: store-load-forward
; entry: main
; args: 1, 42
; expect: trap index_oob
; Near miss: a call that receives the vec pops it between the `set` and the `get`; the get must
; trap as at O0. Not forwarded, with a remark. (A call that receives no vec of that type keeps
; the store: `main` calls `twice` on a scalar first, between another set and get.)
noinline fn shrink(w: vec<i64>) {
entry:
    pop w
    ret
}

noinline fn twice(a: i64) -> i64 {
    var r: i64
entry:
    r = mul a, 2
    ret r
}

fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var y: i64
    var z: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    set v[0], x
    z = call twice(x)
    z = get v[0]
    set v[k], z
    call shrink(v)
    y = get v[k]
    ret y
}
