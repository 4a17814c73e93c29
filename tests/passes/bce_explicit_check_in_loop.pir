; passes: range-check-fold, bounds-check-elim, simplify-cfg
; entry: main
; expect: value 6
; The front end's own `i < 0 || i >= len` check inside a `while i < len(v)` loop is implied by
; the loop test: folded, then decided and removed, and the element read loses its check too.
fn sum(v: vec<i64>) -> i64 {
    var s: i64
    var i: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    s = copy 0
    i = copy 0
    br head
head:
    n = len v
    c = slt i, n
    brif c, check, done
check:
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    n = len v
    c = sge i, n
    brif c, bad, body
body:
    x = get v[i]
    s = add s, x
    i = add i, 1
    br head
bad:
    trap "index out of range"
done:
    ret s
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    push v, 3
    r = call sum(v)
    ret r
}
