; passes: copy-prop
; runs: main(1) main(7) main(-3)
; A compare needs one local operand: where both would become constants, the substitution of
; the second is undone (either side), and the counter counts only what stayed.
; contains: main |     c = slt d, 5\n
; contains: main |     c = slt 5, d\n
; contains: main |     c = slt x, 3\n
; contains: main |     c = sgt 3, x\n
; contains: main |     y = trunc d\n
; contains: main |     y = trunc x\n
; stat: copy-prop copies_propagated = 5
; applied: copy `e = copy x` propagated: 3 later reads of `e` now read `x`
; applied: copy `d = copy 3` propagated: 2 later reads of `d` now read `3`
; no-remark: propagated: 0 later read
fn main(x: i64) -> i64 {
    var d: i64
    var e: i64
    var f: i64
    var c: bool
    var y: i32
    var r: i64
entry:
    d = copy 3
    e = copy x
    f = copy x
    c = slt d, 5
    c = slt 5, d
    c = slt e, d
    c = sgt d, e
    y = trunc d
    y = trunc e
    r = sext y
    brif c, yes, no
yes:
    ret r
no:
    ret 0
}
