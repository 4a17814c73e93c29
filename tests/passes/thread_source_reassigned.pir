; passes: branch-threading, bounds-check-elim
; entry: main
; args: 1
; expect: value 6
; Near miss: `t = copy c` in `a`, then `c` is reassigned to false. On the edge `a -> join`,
; `t` is what `c` held at the copy (true), not what `c` holds at the end of `a` (false): the
; walk must not look through the copy to `c`'s last write. Nothing is threaded, and the read
; happens (threading on `c`'s final value would have returned -1).
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var t: bool
    var e: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    n = len v
    c = slt i, n
    brif c, a, b
a:
    t = copy c
    c = copy false
    br join
b:
    t = copy false
    br join
join:
    brif t, read, out
read:
    e = get v[i]
    ret e
out:
    ret -1
}
