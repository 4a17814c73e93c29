; passes: temp-elision
; entry: main
; args: 3
; expect: value 3
; Terminators are readers too: `d = copy c; brif d, ...` becomes `brif c, ...` (`c` stays live
; for the other block, so the forward form does not apply), and `t = copy x; ret t` becomes
; `ret x`.
fn main(x: i64) -> i64 {
    var t: i64
    var c: bool
    var d: bool
entry:
    c = slt x, 10
    d = copy c
    brif d, small, big
small:
    t = copy x
    ret t
big:
    brif c, small, out
out:
    ret 0
}
