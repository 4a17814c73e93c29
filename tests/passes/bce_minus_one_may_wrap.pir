; passes: bounds-check-elim
; entry: main
; args: -9223372036854775808
; expect: trap index_oob
; Near miss of bce_offset_minus_one: `i < len(v)` but no lower bound on `i`, so `j = sub i, 1`
; may wrap (i64::MIN - 1 is i64::MAX) and gives `j` no constraint from `i`. With
; i = i64::MIN, `j >= 0` holds and `j < len(v)` does not: the check stays and traps.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var j: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    push v, 3
    n = len v
    c = slt i, n
    brif c, below, out
below:
    j = sub i, 1
    c = sge j, 0
    brif c, read, out
read:
    x = get v[j]
    ret x
out:
    ret -1
}
