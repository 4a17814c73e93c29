; passes: range-check-fold, bounds-check-elim
; runs: main(1) main(0)
; contains: f |     pop v\n
; A loop whose every turn pops and counts down a copy of the length: under the ordinary
; widening each visit of its header changes the in-state again (`n` against `len(v)`), so only
; the strict widening ends the fixpoint (tests/analyses.rs counts the sweeps). The pop stays
; checked: nothing says `v` is non-empty on the first turn.
fn f(v: vec<i64>, p: bool) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, same, same
same:
    brif p, spin, done
spin:
    pop v
    n = sub n, 1
    brif p, spin, done
done:
    x = len v
    ret x
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var p: bool
entry:
    v = new vec<i64>
    push v, 1
    p = eq k, 0
    r = call f(v, p)
    ret r
}
