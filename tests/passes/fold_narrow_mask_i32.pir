; passes: range-check-fold
; entry: main
; args: 3, -1
; expect: value 3
; Narrow type: an `i32` bound `n = x & 0x7fffffff` has its sign bit (bit 31) clear, so the `i32`
; range test `i < 0 || i >= n` folds to `i >=u n`.
fn main(i: i32, x: i32) -> i64 {
    var c: bool
    var n: i32
    var r: i64
entry:
    n = and x, 0x7fffffff
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    c = sge i, n
    brif c, bad, ok
ok:
    r = sext i
    ret r
bad:
    trap "index out of range"
}
