; passes: bounds-check-elim
; entry: main
; expect: value 12
; The callee pops a vec<i32>; a vec<i64> cannot be that vec, so the guard on `v` still covers
; the pop after the call (the pop of `w` inside the callee keeps its own check).
fn take32(w: vec<i32>) -> i64 {
    var x: i32
    var y: i64
entry:
    x = pop w
    y = sext x
    ret y
}

fn main() -> i64 {
    var v: vec<i64>
    var w: vec<i32>
    var n: i64
    var c: bool
    var a: i64
    var r: i64
entry:
    v = new vec<i64>
    w = new vec<i32>
    push v, 5
    push w, 7
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    a = call take32(w)
    r = pop v
    r = add r, a
    ret r
empty:
    ret -1
}
