; passes: bounds-check-elim
; entry: main
; args: -1
; expect: trap index_oob
; Near miss: `i < len(v)` alone does not bound a signed index from below: the check stays and
; traps for i = -1.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = slt i, n
    brif c, read, out
read:
    x = get v[i]
    ret x
out:
    ret -2
}
