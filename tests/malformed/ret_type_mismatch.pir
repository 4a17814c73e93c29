fn f() {
entry:
    ret 5
}

fn main() -> i64 {
entry:
    ret 0
}
