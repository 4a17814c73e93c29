; passes: store-load-forward
; entry: main
; args: 5
; expect: value 12
; The walk keeps the end states no block starts from (`left`'s and `right`'s: `join` has two
; ways in) and starts later blocks in their storage, emptied. `join` must start with no store
; available: its `get v[0]` reads 9 or 3 depending on the path, and is not forwarded from
; either branch's `set`. `helper`, walked later in the same storage, must not see `main`'s
; stores under its own locals' numbers either.
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var x: i64
    var r: i64
    var u: vec<i64>
entry:
    v = new vec<i64>
    push v, 1
    u = new vec<i64>
    push u, 2
    c = slt a, 0
    brif c, left, right
left:
    set v[0], 3
    br join
right:
    set v[0], 9
    br join
join:
    x = get v[0]
    r = call helper(x, u)
    ret r
}

fn helper(k: i64, w: vec<i64>) -> i64 {
    var x: i64
    var r: i64
entry:
    x = get w[0]
    r = add k, x
    r = add r, 1
    ret r
}
