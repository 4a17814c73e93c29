fn main() -> i64 {
    var x: i8
entry:
    x = add x, 1000
    ret 0
}
