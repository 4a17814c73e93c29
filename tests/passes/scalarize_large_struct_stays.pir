; passes: scalarize
; entry: main
; expect: value 45
; Structs that do not fit one integer (12 bytes) stay in memory, with a remark saying why.
struct T12 { a: i32, b: i32, c: i32 }

fn main() -> i64 {
    var t: T12
    var a: i32
    var r: i64
entry:
    t = make T12(10, 15, 20)
    a = getfield t.a
    r = sext a
    a = getfield t.b
    r = add r, 15
    a = getfield t.c
    r = add r, 20
    ret r
}
