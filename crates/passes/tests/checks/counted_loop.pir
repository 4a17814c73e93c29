; passes: bounds-check-elim
; runs: main(0) main(1) main(10)
; contains: sum |     x = get.unchecked v[k]\n
; applied: index check removed: 0 <= k < len(v) holds on every path here
; stat: bounds-check-elim checks_removed = 1
fn sum(v: vec<i64>) -> i64 {
    var k: i64
    var n: i64
    var c: bool
    var x: i64
    var s: i64
entry:
    k = copy 0
    s = copy 0
    br head
head:
    n = len v
    c = slt k, n
    brif c, body, exit
body:
    x = get v[k]
    s = add s, x
    k = add k, 1
    br head
exit:
    ret s
}
fn main(m: i64) -> i64 {
    var v: vec<i64>
    var j: i64
    var c: bool
    var r: i64
entry:
    v = new vec<i64>
    j = copy 0
    br fill
fill:
    c = slt j, m
    brif c, more, done
more:
    push v, j
    j = add j, 1
    br fill
done:
    r = call sum(v)
    ret r
}
