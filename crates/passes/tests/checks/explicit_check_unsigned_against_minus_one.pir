; passes: bounds-check-elim
; An explicit check `i <u -1` with 0 <= i <= 7: unsigned, -1 is the largest value, so the
; compare is always true and this check always traps. The facts cannot decide it from the
; signed bounds of `i` (`0 <= -1` is false, so the "false" side of an unsigned compare is not
; proved), and the check stays. A pass that read `0 <= -1` as proved (a constant compared
; with 0 by its offset, reversed) would decide the compare false and remove the trap.
; Beside it `i <u 8`, which the facts do decide (it goes).
; contains: minus_one |     brif c,
; lacks: eight | brif c,
; stat: bounds-check-elim explicit_checks_removed = 1
; stat: bounds-check-elim explicit_checks_kept = 1
; runs: eight(0) eight(7) eight(-1) eight(100)
; traps: minus_one(0)
; traps: minus_one(7)
; traps: minus_one(-1)
fn minus_one(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ult i, -1
    brif c, fail, ok
fail:
    trap "i <u -1"
ok:
    ret i
}
fn eight(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ult i, 8
    brif c, ok, fail
fail:
    trap "not i <u 8"
ok:
    ret i
}
