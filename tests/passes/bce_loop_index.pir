; passes: bounds-check-elim
; entry: main
; expect: value 60
; `while k < len(v) { s += v[k]; k += 1 }` from k = 0: the element read's check goes
; (k >= 0 by induction, k < len(v) from the loop test).
fn sum(v: vec<i64>) -> i64 {
    var s: i64
    var k: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    s = copy 0
    k = copy 0
    br head
head:
    n = len v
    c = slt k, n
    brif c, body, done
body:
    x = get v[k]
    s = add s, x
    k = add k, 1
    br head
done:
    ret s
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 20
    push v, 30
    r = call sum(v)
    ret r
}
