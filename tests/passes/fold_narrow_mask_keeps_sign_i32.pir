; passes: range-check-fold
; entry: main
; args: -7, -1
; expect: trap explicit
; Near miss, narrow type: in `i32`, the mask `0xffffffff` is -1 and keeps bit 31, so
; `n = x & 0xffffffff` is -1 for x = -1. With i = -7 the original traps (`i < 0`) but
; `-7 >=u -1` is false. Not folded, with a remark.
fn main(i: i32, x: i32) -> i64 {
    var c: bool
    var n: i32
    var r: i64
entry:
    n = and x, 0xffffffff
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
