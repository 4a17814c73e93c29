; passes: value-numbering
; entry: main
; args: 2, 3
; expect: value 64
; Two expressions killed by two different instructions (an operand of each reassigned, one
; after the other), then computed again: neither is numbered, and each remark names its own
; expression's cause. Killing the second must not drop the record of the first.
fn main(x: i64, y: i64) -> i64 {
    var a1: i64
    var b1: i64
    var a2: i64
    var b2: i64
    var r: i64
entry:
    a1 = add x, 1
    b1 = mul y, 3
    x = add x, 10
    y = add y, 10
    a2 = add x, 1
    b2 = mul y, 3
    r = add a1, b1
    r = add r, a2
    r = add r, b2
    ret r
}
