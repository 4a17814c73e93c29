; passes: bounds-check-elim
; entry: main
; args: 3
; expect: trap index_oob
; Near miss (issue 14, witness 1): `len(v) > 0` is known, but the constant index is -1: the
; check stays and traps, whether or not remarks are collected (the `run` path collects none).
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, a
    push v, a
    x = get v[-1]
    ret x
}
