struct S8 { a: i32, b: i32 }

fn main() -> i64 {
    var s: S8
    var x: i32
entry:
    x = getfield s.c
    ret 0
}
