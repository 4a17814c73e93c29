fn f(a: i64, b: i64) -> i64 {
entry:
    ret a
}

fn main() -> i64 {
    var x: i64
entry:
    x = call f(1)
    ret x
}
