; Reads element 3 of a vec of length 3: the checked get traps with `index_oob`.
fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 20
    push v, 30
    n = len v
    x = get v[n]
    ret x
}
