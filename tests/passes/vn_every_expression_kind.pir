; passes: value-numbering
; entry: main
; args: 3, 5
; expect: value 29
; Every kind of numbered expression computed twice: a unary, a signed compare, an `eq` with
; its operands swapped (the same test either way), a cast, a commutative `add` with its
; operands swapped. An unrelated local (`u`) is assigned between the two computations: it
; kills none of them. Each second computation becomes a copy of the first.
fn main(x: i64, y: i64) -> i64 {
    var n1: i64
    var n2: i64
    var c1: bool
    var c2: bool
    var e1: bool
    var e2: bool
    var s: i32
    var w1: i64
    var w2: i64
    var a1: i64
    var a2: i64
    var u: i64
    var r: i64
    var t: i64
entry:
    n1 = neg x
    c1 = slt x, y
    e1 = eq x, y
    s = trunc y
    w1 = sext s
    a1 = add x, y
    u = copy 7
    n2 = neg x
    c2 = slt x, y
    e2 = eq y, x
    w2 = sext s
    a2 = add y, x
    r = add n1, n2
    r = add r, w1
    r = add r, w2
    r = add r, a1
    r = add r, a2
    r = add r, u
    t = zext c1
    r = add r, t
    t = zext c2
    r = add r, t
    t = zext e1
    r = add r, t
    t = zext e2
    r = add r, t
    ret r
}
