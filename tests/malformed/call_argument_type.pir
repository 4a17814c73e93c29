fn scale(value: i64, factor: i32) -> i64 {
    var f: i64
entry:
    f = sext factor
    value = mul value, f
    ret value
}

fn main() -> i64 {
    var x: i64
    var y: i64
entry:
    x = copy 3
    y = call scale(x, x)
    ret y
}
