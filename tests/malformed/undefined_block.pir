fn main() -> i64 {
entry:
    br nowhere
}
