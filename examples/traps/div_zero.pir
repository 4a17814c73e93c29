; Divides by a value that is zero at run time: traps with `div_zero`.
fn divide(a: i64, b: i64) -> i64 {
    var q: i64
entry:
    q = sdiv a, b
    ret q
}

fn main() -> i64 {
    var r: i64
entry:
    r = call divide(7, 0)
    ret r
}
