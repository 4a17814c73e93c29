; passes: div-check-elim
; entry: main
; args: 5, 3
; expect: value 9
; The divisor `k` is a parameter no instruction of the loop assigns: the loop is copied, the
; copy's `sdiv` is unchecked, and one test of `k != 0 && k != -1` before the loop picks the
; copy. Nothing proves `k != 0` (rule 1 keeps the check first).
; Sum of i / 3 for i in 0..5 is 0+0+0+1+1 = 2, sum of i % 3 is 0+1+2+0+1 = 4; the
; loop adds q + r: 2 + 4 = 6, plus the final `n sdiv k` outside the loop (5 / 3 = 1, checked)
; and `n srem k` (5 % 3 = 2): 9.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var r: i64
    var c: bool
entry:
    i = copy 0
    acc = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    q = sdiv i, k
    r = srem i, k
    acc = add acc, q
    acc = add acc, r
    i = add i, 1
    br head
done:
    q = sdiv n, k
    acc = add acc, q
    r = srem n, k
    acc = add acc, r
    ret acc
}
