fn main() -> i64 {
    var x: i64
    var y: i32
entry:
    x = copy 1
    y = sext x
    ret 0
}
