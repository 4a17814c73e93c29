; passes: div-check-elim
; entry: main
; args: 4, 0
; expect: trap div_zero
; The loop is versioned; the divisor 0 fails the test, so the original loop runs and its
; checked `urem` traps `div_zero` in the first iteration (same kind and line as at O0).
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
entry:
    i = copy 0
    acc = copy 7
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    q = urem i, k
    acc = add acc, q
    i = add i, 1
    br head
done:
    ret acc
}
