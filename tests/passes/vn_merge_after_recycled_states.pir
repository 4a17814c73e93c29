; passes: value-numbering
; entry: main
; args: 5
; expect: value 8
; The walk keeps the end states no block starts from (`left`'s and `right`'s: `join` has two
; ways in) and starts later blocks in their storage, emptied. `join` must start with nothing
; available: `n = len v` and `s = add a, 1` there are computed again, not copies of `m` (only
; on the `left` path) or `t` (only on the `right` path). Then `helper`, walked after `main` in
; the same storage, must not see `main`'s expressions under its own locals' numbers either.
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var m: i64
    var t: i64
    var n: i64
    var s: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 4
    c = slt a, 0
    brif c, left, right
left:
    m = len v
    br join
right:
    t = add a, 1
    br join
join:
    n = len v
    s = add a, 1
    r = add n, s
    r = call helper(r)
    ret r
}

fn helper(x: i64) -> i64 {
    var v: vec<i64>
    var t: i64
    var m: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 2
    t = len v
    m = add x, 1
    r = add t, m
    r = sub r, 1
    ret r
}
