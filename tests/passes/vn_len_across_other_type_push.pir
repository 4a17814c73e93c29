; passes: value-numbering
; entry: main
; args: 3
; expect: value 2
; `push w` on a vec of another element type cannot change `len(v)`: the second `len v` is
; numbered to the first. (A push on `v` itself would keep it: vn_len_after_pop.pir.)
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i32>
    var n: i64
    var m: i64
    var s: i64
entry:
    v = new vec<i64>
    w = new vec<i32>
    push v, x
    n = len v
    push w, 9
    m = len v
    s = add n, m
    ret s
}
