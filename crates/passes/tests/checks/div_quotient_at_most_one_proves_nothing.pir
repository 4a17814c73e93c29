; passes: div-check-elim
; runs: main(0, 100) main(1, 100) main(2, 100) main(-2, 100) main(-7, 100)
; traps: main(0, 100)
; contains: main |     r = srem x, n\n
; missed: division check kept: `r = srem x, n` needs `n != 0`
; Near miss of div_quotient_bounds_pick_the_largest_divisor.pir: a quotient known only to be
; at most 1 (not at most -1) bounds nothing: `d = n sdiv 2 <= 1` holds for n = 0, and the
; division by `n` must keep its check (it traps for n = 0).
fn main(n: i64, x: i64) -> i64 {
    var d: i64
    var c: bool
    var r: i64
entry:
    d = sdiv n, 2
    c = sle d, 1
    brif c, body, out
body:
    r = srem x, n
    r = add r, d
    ret r
out:
    ret 0
}
