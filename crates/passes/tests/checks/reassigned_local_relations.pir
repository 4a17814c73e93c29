; passes: bounds-check-elim
; `x = add y, 1` reassigns `x`: what was known of the old `x` (here `y < x`) must not be
; carried over to the new one, whose relation to `y` is exactly `x == y + 1`. So `x < y + 2`
; always holds and the explicit check `x < t` (t = y + 2) is kept and traps (near miss from
; the transfer.rs mutation run: carrying `y <= x_old - 1` over as `y <= x_new - 2` would prove
; `x >= y + 2` and drop the trap). `exact` shows the relation that is kept: `x - y == 1`.
; contains: stale |     brif c,
; lacks: exact | brif c,
; stat: bounds-check-elim explicit_checks_kept = 1
; stat: bounds-check-elim explicit_checks_removed = 1
; runs: stale(10,5) stale(3,0) exact(10,5) exact(1,0) exact(7,7)
; traps: stale(10,5)
; returns: exact(10,5)
fn stale(x: i64, y: i64) -> i64 {
    var t: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = sle y, 100
    brif g, g2, out
g2:
    g = slt y, x
    brif g, g3, out
g3:
    x = add y, 1
    t = add y, 2
    c = slt x, t
    brif c, fail, ok
fail:
    trap "x < y + 2"
ok:
    ret x
out:
    ret -1
}

fn exact(x: i64, y: i64) -> i64 {
    var t: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = sle y, 100
    brif g, g2, out
g2:
    g = slt y, x
    brif g, g3, out
g3:
    x = add y, 1
    t = add y, 2
    c = sge x, t
    brif c, fail, ok
fail:
    trap "x >= y + 2"
ok:
    ret x
out:
    ret -1
}
