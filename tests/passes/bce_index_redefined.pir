; passes: bounds-check-elim
; entry: main
; args: 0
; expect: trap index_oob
; Near miss: the index is reassigned after the range test: the check stays and traps.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = sge i, 0
    brif c, lower_ok, out
lower_ok:
    c = slt i, n
    brif c, read, out
read:
    i = add i, 5
    x = get v[i]
    ret x
out:
    ret -2
}
