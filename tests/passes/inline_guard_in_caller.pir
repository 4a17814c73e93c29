; passes: inline, temp-elision, copy-prop, bounds-check-elim
; entry: main
; expect: value 7
; After inlining, the caller's length test dominates the callee's pop: its check goes.
fn take(v: vec<i64>) -> i64 {
    var x: i64
entry:
    x = pop v
    ret x
}

fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var r: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    r = call take(v)
    ret r
empty:
    ret -1
}
