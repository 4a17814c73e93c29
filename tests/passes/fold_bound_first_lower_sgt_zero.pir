; passes: range-check-fold
; entry: main
; args: 0
; expect: trap explicit
; Near miss, bound first: the second test is `i <= 0` (`i > 0` read as `i >= 0`), so i = 0
; traps; `i >=u n` would let it through. Not folded, with a remark naming the test.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    n = len v
    c = sge i, n
    brif c, bad, check_lo
check_lo:
    c = sle i, 0
    brif c, bad, ok
ok:
    x = get v[i]
    ret x
bad:
    trap "index out of range"
}
