; Reaches an explicit `trap` terminator: traps with `explicit` and its message.
fn check(x: i64) -> i64 {
    var c: bool
entry:
    c = eq x, 1
    brif c, fail, done
fail:
    trap "invariant violated: x must not be one"
done:
    ret x
}

fn main() -> i64 {
    var r: i64
entry:
    r = call check(1)
    ret r
}
