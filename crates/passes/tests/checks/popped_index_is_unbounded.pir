; passes: bounds-check-elim
; runs: main(0) main(1) main(2) main(-1)
; The first access keeps its check; its success proves the second.
; contains: f |     t0 = pop.unchecked free\n
; contains: f |     x = get items[i]\n
; contains: f |     set.unchecked items[i], 7\n
; missed: index check kept: `i` was popped from `free`; nothing bounds it
; applied: index check removed: 0 <= i < len(items) holds on every path here (i >= 0 from `x = get items[i]`
; traps: main(2)
; traps: main(-1)
fn f(items: vec<i64>, free: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var i: i64
    var t0: i64
    var x: i64
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, none
reuse:
    t0 = pop free
    i = copy t0
    x = get items[i]
    set items[i], 7
    ret x
none:
    ret -1
}
fn main(k: i64) -> i64 {
    var items: vec<i64>
    var free: vec<i64>
    var r: i64
entry:
    items = new vec<i64>
    free = new vec<i64>
    push items, 10
    push items, 11
    push free, k
    r = call f(items, free)
    ret r
}
