; Issue 14, witness 5: a callee that traps never returns a value to its caller. Here the callee
; returns a vec; a caller that went on after the trap would pop through a dummy handle.
; entry: main
; args: 0
; expect: trap explicit
fn make(k: i64) -> vec<i64> {
    var v: vec<i64>
    var c: bool
entry:
    v = new vec<i64>
    push v, 41
    c = eq k, 0
    brif c, fail, done
fail:
    trap "make failed"
done:
    ret v
}

fn main(k: i64) -> i64 {
    var w: vec<i64>
    var x: i64
entry:
    w = call make(k)
    x = pop w
    set w[0], x
    x = add x, 1
    ret x
}
