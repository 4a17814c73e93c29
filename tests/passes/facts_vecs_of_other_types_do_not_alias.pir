; passes: bounds-check-elim
; entry: main
; args: 4
; expect: value 5
; Two vec parameters of different element types never hold the same vec, even though where
; they come from is unknown: `push b` and `pop b` between the guard on `a` and `pop a` leave
; `len(a)` alone, so `pop a` is proved (and `pop b` by the push just before it).
fn f(a: vec<i64>, b: vec<i32>) -> i64 {
    var n: i64
    var c: bool
    var t: i64
    var s: i32
entry:
    n = len a
    c = sgt n, 0
    brif c, have, out
have:
    push b, 7
    s = pop b
    t = pop a
    ret t
out:
    ret -1
}

fn main(x: i64) -> i64 {
    var a: vec<i64>
    var b: vec<i32>
    var t: i64
entry:
    a = new vec<i64>
    b = new vec<i32>
    push a, x
    t = add x, 1
    push a, t
    t = call f(a, b)
    ret t
}
