; passes: global-copy-prop, dead-local-elim
; entry: main
; args: 2
; expect: value 1042
; Positive: `w` is written only by `w = copy v`, which dominates every read of `w` (in later
; blocks too), and `v` is written once before it; `x` copies `w` (a chain: `x`'s reads read
; `v`), and `c` copies a constant. All three copies go dead and are removed.
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var x: vec<i64>
    var c: i64
    var i: i64
    var t: bool
    var s: i64
    var e: i64
entry:
    v = new vec<i64>
    w = copy v
    c = copy 1000
    x = copy w
    i = copy 0
    br head
head:
    t = slt i, 4
    brif t, body, done
body:
    push w, i
    push x, c
    i = add i, 1
    br head
done:
    s = len x
    e = get w[7]
    s = add s, e
    s = add s, 34
    ret s
}
