; passes: sparse-bounds-check-elim
; runs: main(5, 3) main(-1, 3) main(5, 200)
; traps: main(5, 3)
; returns: main(-1, 3)
; applied: explicit check `brif d, bad, ok` removed: `slt i, 0` is always false here (`i >= 0`)
; missed: explicit check `brif d, big, small` kept: `j` is a parameter; nothing bounds it
; missed: explicit check `brif d, fine, big2` kept: nothing decides `slt j, 100` here; the fact analysis decides it (`--passes bounds-check-elim`)
; no-remark: decides `slt i, 0`
; stat: sparse-bounds-check-elim explicit_checks_removed = 1
; stat: sparse-bounds-check-elim explicit_checks_kept = 2
; The sparse pass's remarks on explicit checks: one both engines decide (`i < 0` under `i >=
; 0`) reads as bounds-check-elim's, one neither decides likewise (where the compared local came
; from), and one only the fact analysis decides, after a `pop` of a new vec that always traps
; (its facts then contradict each other), says what the prover missed and that the fact
; analysis decides it. The decisions are the prover's.
fn main(i: i64, j: i64) -> i64 {
    var z: vec<i64>
    var e: i64
    var c: bool
    var d: bool
entry:
    c = sge i, 0
    brif c, pos, out
pos:
    d = slt i, 0
    brif d, bad, ok
bad:
    trap "negative"
ok:
    z = new vec<i64>
    e = pop z
    d = sgt j, 100
    brif d, big, small
big:
    trap "too big"
small:
    d = slt j, 100
    brif d, fine, big2
big2:
    trap "at least 100"
fine:
    ret e
out:
    ret -1
}
