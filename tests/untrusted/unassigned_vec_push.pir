; Pushing onto a never-assigned vec is a use after drop, not a write through a null handle.
; entry: main
; args: 7
; expect: trap use_after_drop
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var n: i64
entry:
    push v, a
    n = len v
    ret n
}
