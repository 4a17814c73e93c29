fn main() -> i64 {
    var x: i64
entry:
    x = call missing(1)
    ret x
}
