; passes: sparse-bounds-check-elim
; runs: main(5, 100) main(0, 100) main(-1, 100) main(-3, 100) main(0, 2) main(0, 1) main(0, -5)
; traps: main(0, 1)
; contains: main |     q = udiv.unchecked x, n\n
; contains: main |     q = sdiv.unchecked x, 3\n
; contains: main |     q = srem.unchecked x, n\n
; contains: main |     r = srem.unchecked x, m\n
; contains: main |     q = sdiv x, n\n
; contains: main |     r = urem x, n\n
; applied: division check removed: `n >= 1` is known: `q = udiv.unchecked x, n`
; applied: division check removed: the constant divisor 3 passes the test
; applied: division check removed: `n <= -1` is known: `q = srem.unchecked x, n`
; applied: division check removed: `m >= 2` follows from `h >= 1`, `h == m sdiv 2`
; stat: sparse-bounds-check-elim division_checks_removed = 5
; The sparse prover decides `div-check-prove`'s divisions (rule 1 of div-check-elim): `n > 0`
; proves `udiv` by `n`, a constant divisor passes, `n < -1` proves `srem` by `n`, and a
; quotient `h = m sdiv 2` at least 1 proves `m >= 2`. Near misses: `n <= -1` does not prove
; `sdiv` by `n` (`MIN / -1`), and the other side of the quotient's test divides by `n`, which may
; be 0 (`main(0, 1)` traps).
fn main(n: i64, x: i64) -> i64 {
    var q: i64
    var r: i64
    var m: i64
    var h: i64
    var c: bool
entry:
    c = sgt n, 0
    brif c, pos, rest
pos:
    q = udiv x, n
    q = sdiv x, 3
    ret q
rest:
    c = sle n, -1
    brif c, neg, zero
neg:
    q = sdiv x, n
    c = slt n, -1
    brif c, neg2, out
neg2:
    q = srem x, n
    ret q
zero:
    m = add x, 0
    h = sdiv m, 2
    c = sge h, 1
    brif c, half, other
half:
    r = srem x, m
    ret r
other:
    r = urem x, n
    ret r
out:
    ret q
}
