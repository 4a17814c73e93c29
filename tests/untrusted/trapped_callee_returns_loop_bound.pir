; Issue 14, witness 5: a callee that traps never returns a value to its caller. Here the callee
; returns a loop bound; a caller that went on with a dummy 0 would loop for 2^64 steps (the
; run has no fuel).
; entry: main
; args: 0
; expect: trap div_zero
fn bound(k: i64) -> i64 {
    var q: i64
entry:
    q = sdiv 100, k
    ret q
}

fn main(k: i64) -> i64 {
    var n: i64
    var i: i64
    var c: bool
entry:
    n = call bound(k)
    i = copy 1
    br head
head:
    c = eq i, n
    brif c, done, body
body:
    i = add i, 1
    br head
done:
    ret i
}
