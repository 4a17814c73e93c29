fn main() -> i64 {
    var x: i64
entry:
    x = copy 1
    brif x, a, b
a:
    ret 1
b:
    ret 2
}
