; passes: bounds-check-elim
; Explicit checks whose bound is a local that is neither a constant operand nor a length: the
; facts decide them like any other compare of two `i64` operands. `i = x & 7` and `n = 10`
; give `i < n` (the check goes); near misses: `n = 5` (`i` may be 7: the check stays and
; traps), `n` a parameter (nothing is known: stays), and the operands swapped (`n <= i`,
; decided the same way).
; lacks: bound_ten | brif c,
; lacks: bound_ten_swapped | brif c,
; contains: bound_five |     brif c,
; contains: bound_param |     brif c,
; stat: bounds-check-elim explicit_checks_removed = 2
; stat: bounds-check-elim explicit_checks_kept = 2
; runs: bound_ten(0) bound_ten(7) bound_ten(-1) bound_ten_swapped(3) bound_ten_swapped(-9) bound_five(4) bound_param(3,4) bound_param(0,1)
; traps: bound_five(7)
; traps: bound_param(3,3)
fn bound_ten(x: i64) -> i64 {
    var i: i64
    var n: i64
    var c: bool
entry:
    i = and x, 7
    n = copy 10
    c = sge i, n
    brif c, fail, ok
fail:
    trap "i >= n"
ok:
    ret i
}
fn bound_ten_swapped(x: i64) -> i64 {
    var i: i64
    var n: i64
    var c: bool
entry:
    i = and x, 7
    n = copy 10
    c = sle n, i
    brif c, fail, ok
fail:
    trap "n <= i"
ok:
    ret i
}
fn bound_five(x: i64) -> i64 {
    var i: i64
    var n: i64
    var c: bool
entry:
    i = and x, 7
    n = copy 5
    c = sge i, n
    brif c, fail, ok
fail:
    trap "i >= n"
ok:
    ret i
}
fn bound_param(x: i64, n: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sge i, n
    brif c, fail, ok
fail:
    trap "i >= n"
ok:
    ret i
}
