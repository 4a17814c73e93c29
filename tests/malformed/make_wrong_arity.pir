struct S8 { a: i32, b: i32 }

fn main() -> i64 {
    var s: S8
entry:
    s = make S8(1)
    ret 0
}
