fn main() -> i64 {
    var x: i65
entry:
    ret 0
}
