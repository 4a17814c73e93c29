; passes: range-check-fold
; entry: main
; args: 3, 1, 2
; expect: value 2
; Which near misses range-check-fold reports (the remarks are the snapshot's subject; nothing
; folds here). Reported: the lower test is on `i` but the signed upper test compares another
; local with a constant (`j >= 5`). Not reported, because they are not range-check shapes at
; all: an unsigned upper test on other locals (`j >=u m`), and a lower test against a constant
; outside -1..=1 (`i > 5`, no sign test and no near miss of one).
fn other_local_constant(i: i64, j: i64) -> i64 {
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    c = sge j, 5
    brif c, bad, ok
ok:
    ret 1
bad:
    ret 0
}

fn unsigned_other_locals(i: i64, j: i64, m: i64) -> i64 {
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    c = uge j, m
    brif c, bad, ok
ok:
    ret 1
bad:
    ret 0
}

fn lower_test_far_from_zero(i: i64, m: i64) -> i64 {
    var c: bool
entry:
    c = sgt i, 5
    brif c, bad, hi
hi:
    c = sge i, m
    brif c, bad, ok
ok:
    ret 1
bad:
    ret 0
}

fn main(i: i64, j: i64, m: i64) -> i64 {
    var a: i64
    var b: i64
    var r: i64
entry:
    a = call other_local_constant(i, j)
    b = call unsigned_other_locals(i, j, m)
    r = add a, b
    b = call lower_test_far_from_zero(i, m)
    r = add r, b
    ret r
}
