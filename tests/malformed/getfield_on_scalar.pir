struct S8 { a: i32, b: i32 }

fn main() -> i64 {
    var x: i64
    var y: i32
entry:
    y = getfield x.a
    ret 0
}
