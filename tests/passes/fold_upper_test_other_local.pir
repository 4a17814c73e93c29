; passes: range-check-fold
; entry: main
; args: 5, 0, 2
; expect: value 5
; Near miss: the lower test is on `i` but the upper test compares another local `j` with the
; bound: `i < 0 || j >= m` is not a range check of `i`, and folding it to `i >=u m` would trap
; for i = 5, j = 0 (m = 2). Not folded.
fn main(i: i64, j: i64, n: i64) -> i64 {
    var c: bool
    var m: i64
entry:
    m = copy 2
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    c = sge j, m
    brif c, bad, ok
ok:
    ret i
bad:
    trap "index out of range"
}
