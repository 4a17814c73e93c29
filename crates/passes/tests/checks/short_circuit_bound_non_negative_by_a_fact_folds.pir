; The bound `n` is a parameter, non-negative only because the entry tested it: the round
; decided on the blocks alone cannot fold this range check, the round with the fact analysis
; does.
; passes: range-check-fold
; runs: main(-1, 3) main(0, 3) main(2, 3) main(3, 3) main(0, -1) main(i64::MIN, 4)
; applied: range check `i < 0 || i >= n` folded to `i >=u n`
; contains: f |     c = uge i, n\n
; stat: range-check-fold compares_folded = 1
; returns: main(2, 3)
; traps: main(3, 3)
fn f(i: i64, n: i64) -> i64 {
    var c: bool
entry:
    c = slt n, 0
    brif c, neg, test
test:
    c = slt i, 0
    brif c, bad, hi
hi:
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    trap "index out of range"
neg:
    ret 2
}
fn main(k: i64, n: i64) -> i64 {
    var r: i64
entry:
    r = call f(k, n)
    ret r
}
