; passes: temp-elision
; entry: main
; args: 5
; expect: value 1
; Near miss: `t = copy 5` feeds a compare whose other operand is a constant, and a compare of
; two constants is not valid IR, so `t` cannot be replaced by 5 there and its copy stays (with
; the copy deleted, `t` would read 0 and the compare `slt 0, 3` would be true). The same
; constant does stand in where one operand stays a local (`d = add t, n`).
fn main(n: i64) -> i64 {
    var t: i64
    var u: i64
    var c: bool
    var d: i64
entry:
    t = copy 5
    c = slt t, 3
    brif c, yes, no
yes:
    ret 0
no:
    u = copy 7
    d = add u, n
    d = sub d, 11
    ret d
}
