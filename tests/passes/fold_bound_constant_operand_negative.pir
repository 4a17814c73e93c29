; passes: range-check-fold
; entry: main
; args: 3
; expect: trap explicit
; Near miss: the bound is the constant operand -1 itself (`i >= -1` with the constant first,
; `sle -1, i`): not folded; i = 3 traps.
fn main(i: i64) -> i64 {
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    c = sle -1, i
    brif c, bad, ok
ok:
    ret i
bad:
    trap "index out of range"
}
