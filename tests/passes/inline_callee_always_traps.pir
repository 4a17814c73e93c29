; passes: inline, simplify-cfg
; entry: main
; args: -3
; expect: trap explicit
; A callee that traps on every path, inlined: the code after the call has no way in any more.
; The inliner drops that continuation itself (the verifier, run after every pass here, refuses
; an unreachable block), and the trap keeps its meaning: the callee's message, in its name.
fn fail(x: i64) -> i64 {
    var c: bool
entry:
    c = slt x, -100
    brif c, far, near
far:
    trap "far below"
near:
    trap "negative index"
}

fn main(n: i64) -> i64 {
    var s: i64
    var c: bool
entry:
    c = slt n, 0
    brif c, bad, good
bad:
    s = call fail(n)
    s = add s, 1
    ret s
good:
    ret n
}
