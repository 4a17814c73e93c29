; passes: bounds-check-elim
; runs: main(0) main(9) main(12)
; traps: main(9)
; returns: main(12)
; missed: index check kept: needs `i < len(a)`; known: `i >= 0`, `i <= 9`
; stat: bounds-check-elim checks_removed = 0
; Near miss of `loop_after_a_loop.pir`: the second loop runs to 10 after a length test that only
; gives `len(a) >= 9`; the driver keeps `i >= 0` across both loops, but `i < len(a)` does not
; follow, and the check stays (it traps for n = 9).
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
    c = slt i, 10
    brif c, body, done
body:
    x = get a[i]
    s = add s, x
    i = add i, 1
    br head
done:
    ret s
}
