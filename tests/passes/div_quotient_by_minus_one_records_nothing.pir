; passes: div-check-elim
; entry: main
; args: 0, 100
; expect: trap div_zero
; Near miss of the quotient rule: it needs a constant divisor of at least 1. Here `half = n sdiv
; -1` is `-n`; `k < half` gives `half >= 1`, i.e. `n <= -1`, which the rule does not claim (it
; records no quotient for a negative divisor); the check stays. With n = 0, `half` = 0, the loop
; does not run, and the division after it traps.
fn main(n: i64, x: i64) -> i64 {
    var half: i64
    var k: i64
    var c: bool
    var s: i64
    var r: i64
entry:
    half = sdiv n, -1
    k = copy 0
    s = copy 0
    br head
head:
    c = slt k, half
    brif c, body, done
body:
    r = srem x, n
    s = add s, r
    k = add k, 1
    br head
done:
    r = srem x, n
    ret r
}
