fn main() -> i64 {
    var x: i64
    var x: i32
entry:
    ret 0
}
