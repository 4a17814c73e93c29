; passes: div-check-elim
; entry: main
; args: 0, 100
; expect: trap div_zero
; Near miss of `div_quotient_at_least_one.pir`: the loop runs while `k <= half`, which only
; gives `half >= 0`; a quotient of 0 allows `n == 0` (here it is), so the check stays (the loop
; is copied and the zero test picks the checked original) and the first turn traps.
fn main(n: i64, x: i64) -> i64 {
    var half: i64
    var k: i64
    var c: bool
    var s: i64
    var r: i64
entry:
    half = sdiv n, 2
    k = copy 0
    s = copy 0
    br head
head:
    c = sle k, half
    brif c, body, done
body:
    r = srem x, n
    s = add s, r
    k = add k, 1
    br head
done:
    ret s
}
