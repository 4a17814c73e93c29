fn main() -> i64 {
    var x: i64
entry:
    x = add y, 1
    ret x
}
