; passes: div-check-elim
; entry: main
; args: 7, 100
; expect: value 6
; A loop that runs while `k < half`, `half = n sdiv 2`: inside, `k >= 0` gives `half >= 1`,
; and a quotient of at least 1 by 2 needs `n >= 2`, so `x srem n` cannot divide by zero: its
; check is removed outright (no loop copy). `half` = 3; three turns of 100 % 7 = 2: 6.
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
    c = slt k, half
    brif c, body, done
body:
    r = srem x, n
    s = add s, r
    k = add k, 1
    br head
done:
    ret s
}
