; passes: value-numbering
; entry: main
; args: 0
; expect: value 5
; `len v` twice: with only a `set` between (lengths unchanged) the second is a copy of the
; first; after a `pop` of a handle that may alias `v` the third is not (3 + 2 = 5), with a remark.
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var n1: i64
    var n2: i64
    var n3: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    w = copy v
    n1 = len v
    set v[k], 9
    n2 = len v
    pop w
    n3 = len v
    r = add n2, n3
    ret r
}
