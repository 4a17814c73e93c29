; passes: temp-elision
; entry: main
; args: 5, 100
; expect: value 107
; Near miss of the forward form after a backward rename: once `u = add t, 1` reads `x`
; directly, `x = copy p` cannot become `x = add a, 1` up at `p`'s definition (`u` would see
; the new `x`, 6, and the function return 13). `x` is read between the two, by the renamed
; instruction (not by the deleted `t = copy x`, which is before `p`'s definition).
fn main(a: i64, x: i64) -> i64 {
    var t: i64
    var p: i64
    var u: i64
entry:
    t = copy x
    p = add a, 1
    u = add t, 1
    x = copy p
    u = add u, x
    ret u
}
