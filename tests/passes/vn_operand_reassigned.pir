; passes: value-numbering
; entry: main
; args: 3
; expect: value 9
; Near miss: `i` is reassigned between the two `add i, 1`, so they compute different values
; (4, then 5). Not numbered, with a remark.
fn main(i: i64) -> i64 {
    var t1: i64
    var t2: i64
    var r: i64
entry:
    t1 = add i, 1
    i = copy t1
    t2 = add i, 1
    r = add t1, t2
    ret r
}
