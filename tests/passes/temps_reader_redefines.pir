; passes: temp-elision
; entry: main
; args: 41
; expect: value 43
; A temporary whose reader also overwrites it: `t = copy x; t = add t, 1` becomes
; `t = add x, 1` although `t` is live after the reader (that is the new value); then the
; forward form: `t = add t, 1; u = copy t` becomes `u = add t, 1`.
fn main(x: i64) -> i64 {
    var t: i64
    var u: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 1
    u = copy t
    ret u
}
