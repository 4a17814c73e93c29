; passes: div-check-elim
; entry: main
; args: -9223372036854775808, -1
; expect: value -9223372036854775808
; `sdiv` by -1 in a versioned loop: `k = -1` fails the hoisted test (`k != -1`), so the
; original loop runs with its checked `sdiv`, which gives MIN / -1 = MIN (wrapping) without a
; fault. `srem` by -1 needs only `k != 0`, but the test is per divisor, so it runs checked too.
fn main(x: i64, k: i64) -> i64 {
    var i: i64
    var q: i64
    var r: i64
    var c: bool
entry:
    i = copy 0
    q = copy 0
    br head
head:
    c = slt i, 3
    brif c, body, done
body:
    q = sdiv x, k
    r = srem x, k
    q = add q, r
    i = add i, 1
    br head
done:
    ret q
}
