; passes: store-load-forward
; entry: main
; args: 0, 42
; expect: value 6
; Near miss: the index `k` is reassigned between the `set` and the `get`, so they name different
; elements. Not forwarded, with a remark.
fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var y: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    set v[k], x
    k = add k, 1
    y = get v[k]
    ret y
}
