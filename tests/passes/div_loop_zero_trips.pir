; passes: div-check-elim
; entry: main
; args: 0, 0
; expect: value 7
; The loop is versioned, but with `n = 0` it runs zero times: the divisor 0 fails the test
; before the loop, the original loop is entered, exits at once, and nothing divides: no trap.
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
    q = udiv i, k
    acc = add acc, q
    i = add i, 1
    br head
done:
    ret acc
}
