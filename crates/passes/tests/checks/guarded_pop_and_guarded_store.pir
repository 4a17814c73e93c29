; passes: bounds-check-elim
; runs: main(0) main(1) main(5) main(-1)
; main: `get items[r].b` after a call: nothing known.
; contains: alloc |     t0 = pop.unchecked free\n
; contains: alloc |     set.unchecked items[i], v\n
; contains: main |     x = get items[r].b\n
; applied: pop check removed: len(free) > 0 holds on every path here (len(free) > 0 from `brif c, reuse, append` in `entry`
; applied: index check removed: 0 <= i < len(items) holds on every path here (i >= 0 from `brif c, bad, check_hi` in `reuse` (line 26); i < len(items) from `brif c, bad, store` in `check_hi` (line 30))
; missed: index check kept: `r` is the result of a call to `alloc`; nothing bounds it
; stat: bounds-check-elim checks_removed = 2
; stat: bounds-check-elim checks_kept = 1
struct S8 { a: i32, b: i32 }
fn alloc(items: vec<S8>, free: vec<i64>, v: S8) -> i64 {
    var n: i64
    var c: bool
    var i: i64
    var t0: i64
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, append
reuse:
    t0 = pop free
    i = copy t0
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    n = len items
    c = sge i, n
    brif c, bad, store
store:
    set items[i], v
    ret i
bad:
    trap "index out of range"
append:
    i = len items
    push items, v
    ret i
}
fn main(k: i64) -> i64 {
    var items: vec<S8>
    var free: vec<i64>
    var v: S8
    var r: i64
    var x: i32
    var a: i64
entry:
    items = new vec<S8>
    free = new vec<i64>
    v = make S8(1, 2)
    r = call alloc(items, free, v)
    r = call alloc(items, free, v)
    push free, k
    r = call alloc(items, free, v)
    x = get items[r].b
    a = sext x
    r = add r, a
    ret r
}
