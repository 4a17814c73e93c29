fn main() -> i64 {
    var x: i64
    var y: i32
entry:
    x = add x, y
    ret x
}
