; passes: dead-local-elim
; runs: main(0) main(1) main(5)
; Instructions whose result nobody reads but which may trap or have effects stay, each with
; the reason in its remark; a pop's and a call's dead result is dropped instead.
; missed: `x = get v[k]` kept although `x` is never read: it may trap (the index check)
; missed: `q = sdiv 7, k` kept although `q` is never read: it may trap (division by zero)
; missed: `w = new vec<i64>` kept although `w` is never read: it allocates (and may run out of memory)
; applied: dead result of `y = pop v` dropped: `pop v` stays because it may trap (pop of an empty vec)
; applied: dead result of `z = call f(k)` dropped: `call f(k)` stays because the call may have effects
; stat: dead-local-elim results_dropped = 2
fn f(a: i64) -> i64 {
entry:
    ret a
}

fn main(k: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var x: i64
    var y: i64
    var z: i64
    var q: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    x = get v[k]
    q = sdiv 7, k
    w = new vec<i64>
    y = pop v
    z = call f(k)
    ret k
}
