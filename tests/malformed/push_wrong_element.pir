struct S8 { a: i32, b: i32 }

fn main() -> i64 {
    var v: vec<S8>
entry:
    v = new vec<S8>
    push v, 7
    ret 0
}
