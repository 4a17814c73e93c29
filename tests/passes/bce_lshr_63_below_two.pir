; passes: bounds-check-elim
; entry: main
; args: -4
; expect: value 8
; The logical-shift rule where it holds: `lshr x, 63` is 0 or 1, so with `len(v) = 2` the
; check of `get v[i]` is removed. `-4 lshr 63` is 1: the second element, 8. Its near miss is
; bce_lshr_63_of_negative_is_one.pir (length 1).
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 7
    push v, 8
    i = lshr x, 63
    r = get v[i]
    ret r
}
