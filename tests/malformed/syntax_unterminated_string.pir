fn main() -> i64 {
entry:
    trap "never closed
}
