; passes: temp-elision
; entry: main
; args: 4
; expect: value 5
; Near miss: `t = copy t` carries no value anywhere (it copies `t` onto itself), so it is no
; temporary for the backward form: the pass leaves it and its reader alone, with no remark.
fn main(t: i64) -> i64 {
    var r: i64
entry:
    t = copy t
    r = add t, 1
    ret r
}
