; Pushes onto a vec after dropping it: traps with `use_after_drop`.
fn main() -> i64 {
    var v: vec<i64>
    var n: i64
entry:
    v = new vec<i64>
    push v, 1
    drop v
    push v, 2
    n = len v
    ret n
}
