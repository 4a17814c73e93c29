; passes: value-numbering
; entry: main
; args: 7, 0
; expect: trap div_zero
; Division numbered across an extended basic block: the second `sdiv a, b` (in the only
; successor) becomes a copy of the first; with b = 0 the first traps, as at O0. A `sdiv` in the
; join block (two predecessors) is not numbered.
fn main(a: i64, b: i64) -> i64 {
    var q1: i64
    var q2: i64
    var q3: i64
    var c: bool
entry:
    q1 = sdiv a, b
    c = sgt a, 0
    brif c, pos, join
pos:
    q2 = sdiv a, b
    br join
join:
    q3 = sdiv a, b
    q3 = add q3, q2
    ret q3
}
