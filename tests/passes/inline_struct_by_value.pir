; passes: inline, temp-elision, copy-prop, scalarize
; entry: main
; expect: value 1001
; Struct arguments are copies: the callee's update of its parameter does not reach the
; caller's struct; a struct result is copied back.
struct P { a: i32, b: i32 }

fn bump(p: P) -> P {
    var x: i32
entry:
    x = getfield p.a
    x = add x, 1000
    setfield p.a, x
    ret p
}

fn main() -> i64 {
    var p: P
    var q: P
    var a: i32
    var b: i32
    var r: i64
    var s: i64
entry:
    p = make P(1, 2)
    q = call bump(p)
    a = getfield p.a
    b = getfield q.a
    r = sext a
    s = sext b
    r = add r, s
    r = sub r, 1
    ret r
}
