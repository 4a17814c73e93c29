fn main() -> i64 {
    var v: vec<i64>
    var i: i32
    var x: i64
entry:
    v = new vec<i64>
    x = get v[i]
    ret x
}
