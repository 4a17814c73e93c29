fn main() -> i64 {
    var x: i64
entry:
    x = copy 1
next:
    ret x
}
