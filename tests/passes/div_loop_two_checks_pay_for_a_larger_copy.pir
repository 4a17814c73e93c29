; passes: div-check-elim
; entry: main
; args: 5, 3
; expect: value 56
; A loop of 12 instructions with two divisions by the invariant `k` (an `sdiv` and a `srem`):
; 12 is at most 8 per hoisted check, so the loop is versioned and both divisions are
; unchecked in the copy, entered after one test of `k != 0` and `k != -1`. (The same loop
; with one division would be refused: `div_loop_copy_not_worth_one_check.pir`.)
; Sum over i in 0..5 of i / 3 + i % 3 + 10: (0+0+0+1+1) + (0+1+2+0+1) + 50 = 56.
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
    acc = add acc, q
    r = srem i, k
    acc = add acc, r
    acc = add acc, 1
    acc = add acc, 2
    acc = add acc, 3
    acc = add acc, 4
    i = add i, 1
    br head
done:
    ret acc
}
