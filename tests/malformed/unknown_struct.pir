fn main() -> i64 {
    var s: S9
entry:
    ret 0
}
