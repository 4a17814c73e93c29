; passes: range-check-fold
; entry: main
; args: 1
; expect: value 8
; Near miss, bound first: the sign-test block assigns `k = add i, 7`, which `ok` reads. Skipping
; that block would leave `k` at 0 (the result would be 0, not 8). Not folded, with a remark.
fn main(i: i64) -> i64 {
    var c: bool
    var k: i64
    var n: i64
entry:
    n = copy 4
    c = sge i, n
    brif c, bad, check_lo
check_lo:
    k = add i, 7
    c = slt i, 0
    brif c, bad, ok
ok:
    ret k
bad:
    trap "index out of range"
}
