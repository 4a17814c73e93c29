; passes: bounds-check-elim
; runs: main(0) main(1) main(2) main(3)
; After `push w`, lengths only grew: the pop stays unchecked-able.
; After `pop w` (w may be v) and after a call: kept.
; Pop after a pop of the same vec: the first goes, the second stays.
; The checks that stayed do trap at run time (w is v).
; contains: f | pushw:\n    push w, 5\n    x = pop.unchecked v\n
; contains: f | popw:\n    pop w\n    x = pop v\n
; contains: f | callg:\n    call g(w)\n    x = pop v\n
; contains: f | twice:\n    x = pop.unchecked v\n    x = pop v\n
; missed: pop check kept: nothing proves len(v) > 0 here; it held, but `pop w` (line
; missed: pop check kept: nothing proves len(v) > 0 here; it held, but `call g(w)`
; missed: pop check kept: nothing proves len(v) > 0 here; it held, but `x = pop v` (line
; traps: main(0)
; traps: main(1)
; returns: main(2)
; traps: main(3)
fn g(w: vec<i64>) {
entry:
    pop w
    ret
}
fn f(v: vec<i64>, w: vec<i64>, which: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, none
have:
    c = eq which, 0
    brif c, popw, next1
popw:
    pop w
    x = pop v
    ret x
next1:
    c = eq which, 1
    brif c, callg, next2
callg:
    call g(w)
    x = pop v
    ret x
next2:
    c = eq which, 2
    brif c, pushw, twice
pushw:
    push w, 5
    x = pop v
    ret x
twice:
    x = pop v
    x = pop v
    ret x
none:
    ret -1
}
fn main(which: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 42
    r = call f(v, v, which)
    ret r
}
