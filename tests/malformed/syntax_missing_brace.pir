fn main() -> i64 {
entry:
    ret 0
