; Reaches an explicit `trap` terminator: traps with `explicit` and its message.
fn main() -> i64 {
    var c: bool
entry:
    c = eq 1, 1
    brif c, fail, done
fail:
    trap "invariant violated: one equals one"
done:
    ret 0
}
