; passes: global-copy-prop
; entry: main
; args: 3
; expect: value 25
; Near misses: the source of each copy is written exactly once, but *after* the copy, so the
; copy holds the older value (0 for a local not yet written) and its reads must not be
; forwarded to the source:
; - `d = copy s` in `entry`, and `s` is written later in the same block: `r = add d, s` is
;   0 + 4, not 4 + 4;
; - `e = copy u` in the loop head, and `u`'s only write is in the loop body (which does not
;   dominate the head) before `e` is read there: the body adds the previous trip's `u`
;   (0, 10, 11), not the new one (10, 11, 12).
; 4 + (0 + 10 + 11) = 25; forwarding `d` would give 29, forwarding `e` 37.
fn main(n: i64) -> i64 {
    var s: i64
    var d: i64
    var r: i64
    var i: i64
    var u: i64
    var e: i64
    var c: bool
entry:
    d = copy s
    s = add n, 1
    r = add d, s
    i = copy 0
    br head
head:
    c = slt i, n
    e = copy u
    brif c, body, done
body:
    u = add i, 10
    r = add r, e
    i = add i, 1
    br head
done:
    ret r
}
