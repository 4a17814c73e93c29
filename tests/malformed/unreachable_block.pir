fn main() -> i64 {
entry:
    ret 0
orphan:
    ret 1
}
