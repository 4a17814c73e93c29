; passes: struct-split
; entry: main
; args: 3
; expect: value 10
; A struct that fits one integer (8 bytes) is scalarize's, not struct-split's: struct-split
; leaves the local alone even when scalarize has not run (the local is not packed yet).
struct P { a: i32, b: i32 }

fn main(x: i32) -> i64 {
    var p: P
    var a: i32
    var b: i32
    var r: i32
    var w: i64
entry:
    p = make P(x, 7)
    a = getfield p.a
    b = getfield p.b
    r = add a, b
    w = sext r
    ret w
}
