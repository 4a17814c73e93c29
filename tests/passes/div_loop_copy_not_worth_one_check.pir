; passes: div-check-elim
; entry: main
; args: 5, 2
; expect: value 34
; Near miss: a loop of 9 instructions (terminators included) with one division of an
; invariant divisor. A copy may have at most 8 instructions per check it removes (a hoisted
; check saves a compare and a branch per iteration; the copy doubles the loop's compile
; cost), so the loop is not versioned and the division keeps its check; the remark says why.
; (`div_loop_invariant.pir` has 8 instructions per division and is versioned.)
; Sum over i in 0..5 of i / 2 + 6: (0+0+1+1+2) + 30 = 34.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
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
    acc = add acc, 1
    acc = add acc, 2
    acc = add acc, 3
    i = add i, 1
    br head
done:
    ret acc
}
