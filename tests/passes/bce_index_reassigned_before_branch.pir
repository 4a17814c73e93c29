; passes: bounds-check-elim
; entry: main
; args: 0
; expect: trap index_oob
; Near miss (issue 14, witness 2): the compare says `i <u len(v)`, but `i` is reassigned between
; the compare and the branch, so the compare's result says nothing about the new `i`: the
; reassignment kills (not just forgets) the facts that mention `i`. The check stays and traps.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = ult i, n
    i = copy 1000
    brif c, read, out
read:
    x = get v[i]
    ret x
out:
    ret -2
}
