; Dropping twice (through an alias) is use_after_drop, not a double free.
; entry: main
; args: 5
; expect: trap use_after_drop
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
entry:
    v = new vec<i64>
    push v, a
    w = copy v
    drop v
    drop w
    ret a
}
