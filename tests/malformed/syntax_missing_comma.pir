fn main() -> i64 {
    var x: i64
entry:
    x = add 1 2
    ret x
}
