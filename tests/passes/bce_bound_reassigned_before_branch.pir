; passes: bounds-check-elim
; entry: main
; args: 1
; expect: trap index_oob
; Near miss: `c = slt i, n` with `n = len v`, then `n` is reassigned before the branch: the
; compare no longer relates `i` to the length. The check stays and traps for i = 1.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var d: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    n = add n, 5
    c = slt i, n
    d = sge i, 0
    n = len v
    c = and c, d
    brif c, read, out
read:
    x = get v[i]
    ret x
out:
    ret -2
}
