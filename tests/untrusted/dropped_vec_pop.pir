; A pop of a dropped vec (through an alias) is pop_empty.
; entry: main
; args: 5
; expect: trap pop_empty
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, a
    w = copy v
    drop w
    x = pop v
    ret x
}
