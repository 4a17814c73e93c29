; passes: div-check-elim
; entry: main
; args: 100, 0
; expect: trap div_zero
; Near miss: `if k >= 0` lets `k = 0` through, so the division keeps its test and traps
; `div_zero` exactly as at O0.
fn main(x: i64, k: i64) -> i64 {
    var c: bool
    var q: i64
entry:
    c = sge k, 0
    brif c, div, skip
div:
    q = sdiv x, k
    ret q
skip:
    ret -1
}
