; After `drop`, the vec is empty: the old buffer is freed and never read or written again.
; entry: main
; args: 0
; expect: trap index_oob
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    w = copy v
    drop v
    set w[i], 99
    x = get w[i]
    ret x
}
