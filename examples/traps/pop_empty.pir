; Pops one element more than was pushed: the checked pop traps with `pop_empty`.
fn main() -> i64 {
    var v: vec<i64>
    var x: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 41
    x = pop v
    y = pop v
    ret y
}
