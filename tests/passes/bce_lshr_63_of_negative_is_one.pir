; passes: bounds-check-elim
; entry: main
; args: -4
; expect: trap index_oob
; Near miss of the logical-shift rule (found by the differential run of 2026-12-03, seed
; 135726598): `lshr x, 63` reads `x` as unsigned, so it is 0 or 1 (`-4 lshr 63` is 1), not
; `<= i64::MAX >> 63 = 0`. With `len(v) = 1` the index may be 1: the check stays and traps.
; The rule still proves the access when the length is 2 (bce_lshr_63_below_two.pir).
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 7
    i = lshr x, 63
    r = get v[i]
    ret r
}
