; passes: temp-elision
; entry: main
; args: 5, 100
; expect: value 106
; Near miss of the forward form where the block's first `copy` is the candidate itself:
; `y = add d, 0` reads `d` between `t`'s definition and `d = copy t`, so `t = add x, 1`
; cannot write `d` (`y` would be 6, not 100, and the function return 12).
fn main(x: i64, d: i64) -> i64 {
    var t: i64
    var y: i64
entry:
    t = add x, 1
    y = add d, 0
    d = copy t
    d = add d, y
    ret d
}
