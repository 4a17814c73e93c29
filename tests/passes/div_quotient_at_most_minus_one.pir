; passes: div-check-elim
; entry: main
; args: -5, 100
; expect: value 0
; The other side: `q = n sdiv 2` and a loop that runs while `q < k` counting down from -1
; (`k = -1, -2, ...`): inside, `q <= k - 1 <= -2`, and a quotient of at most -1 by 2 needs
; `n <= -2`, so `x sdiv n` (which must also exclude -1) has its check removed. `q` = -2: one
; turn, k = -1; 100 / -5 = -20, and the sum -20 plus 20 added back: 0.
fn main(n: i64, x: i64) -> i64 {
    var q: i64
    var k: i64
    var c: bool
    var s: i64
    var r: i64
entry:
    q = sdiv n, 2
    k = copy -1
    s = copy 20
    br head
head:
    c = slt q, k
    brif c, body, done
body:
    r = sdiv x, n
    s = add s, r
    k = sub k, 1
    br head
done:
    ret s
}
