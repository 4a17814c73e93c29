; passes: global-copy-prop
; entry: main
; args: 3
; expect: value 78
; Near misses, each must keep reading its own local:
; - `d = copy i` sits at the end of the loop body, but `d` is read at the loop head, where the
;   first trip sees 0 and later trips the previous value of `i`, not the current one;
; - `a = copy b`, and `b` is written again after the copy (`b = add b, 10`), so `a` keeps the old
;   value;
; - `p = copy q`, and `q` is written again in the loop, so `p` keeps its own value;
; - `e = copy n` copies a parameter nothing writes, but `e` is read at the loop head, which the
;   copy (in the body) does not dominate: the first trip reads 0, not `n`.
fn main(n: i64) -> i64 {
    var i: i64
    var d: i64
    var acc: i64
    var t: bool
    var a: i64
    var b: i64
    var p: i64
    var q: i64
    var e: i64
entry:
    i = copy 0
    acc = copy 0
    b = copy 5
    a = copy b
    b = add b, 10
    q = copy 1
    p = copy q
    br head
head:
    acc = add acc, d
    acc = add acc, e
    t = slt i, 5
    brif t, body, done
body:
    i = add i, 1
    q = add q, 1
    d = copy i
    e = copy n
    br head
done:
    acc = add acc, a
    acc = add acc, b
    acc = add acc, p
    acc = add acc, 27
    ret acc
}
