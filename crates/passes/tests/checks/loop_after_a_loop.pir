; passes: bounds-check-elim
; runs: main(0) main(1) main(12)
; contains: main |     x = get.unchecked a[i]\n
; applied: index check removed: 0 <= i < len(a) holds on every path here
; stat: bounds-check-elim checks_removed = 1
; A loop after a loop (and a length test between them): the first one's exit state changes on
; every sweep of it (it pushes), so the fact driver stabilizes it before it widens the second
; one's header, which then keeps `i >= 0` from `i = 0` and `i < len(a)` from `i < m`,
; `m == len(a)`. (Sweeping the whole function widened the second header against entry states
; that were still changing and lost `i >= 0`: the check stayed.)
fn main(n: i64) -> i64 {
    var a: vec<i64>
    var k: i64
    var c: bool
    var s: i64
    var i: i64
    var x: i64
    var m: i64
entry:
    a = new vec<i64>
    k = copy 0
    br fill_head
fill_head:
    c = slt k, n
    brif c, fill_body, fill_done
fill_body:
    x = mul k, 10
    push a, x
    k = add k, 1
    br fill_head
fill_done:
    s = copy 0
    m = len a
    c = sge m, 9
    brif c, start, done
start:
    i = copy 0
    br head
head:
    c = slt i, m
    brif c, body, done
body:
    x = get a[i]
    s = add s, x
    i = add i, 1
    br head
done:
    ret s
}
