; passes: div-check-elim
; runs: main(7, 100) main(2, 100) main(0, 100) main(-7, 100) main(-2, 100)
; contains: main |     r = srem.unchecked x, n\n
; contains: main |     s = sdiv.unchecked x, n\n
; applied: division check removed: `n >= 3` follows from `b >= 1`, `b == n sdiv 3`: `r = srem.unchecked x, n`
; applied: division check removed: `n <= -3` follows from `f <= -1`, `f == n sdiv 3`: `s = sdiv.unchecked x, n`
; Several quotients of one dividend bound it at once: `a = n sdiv 2`, `b = n sdiv 3` and
; `b2 = n sdiv 3` all at least 1 give `n >= 2` and `n >= 3`; the remark names the strongest
; bound and, of two equally strong ones, the first (`b`, not `b2`). The same on the negative
; side with `e`, `f`, `f2` at most -1: `n <= -3`. Either bound removes the check. (The
; quotients are read after the division: a quotient fact goes when its local dies.)
fn main(n: i64, x: i64) -> i64 {
    var a: i64
    var b: i64
    var b2: i64
    var e: i64
    var f: i64
    var f2: i64
    var c: bool
    var r: i64
    var s: i64
entry:
    a = sdiv n, 2
    b = sdiv n, 3
    b2 = sdiv n, 3
    e = sdiv n, 2
    f = sdiv n, 3
    f2 = sdiv n, 3
    c = sge a, 1
    brif c, pos1, neg0
pos1:
    c = sge b, 1
    brif c, pos2, out
pos2:
    c = sge b2, 1
    brif c, pos_body, out
pos_body:
    r = srem x, n
    r = add r, a
    r = add r, b
    r = add r, b2
    ret r
neg0:
    c = sle e, -1
    brif c, neg1, out
neg1:
    c = sle f, -1
    brif c, neg2, out
neg2:
    c = sle f2, -1
    brif c, neg_body, out
neg_body:
    s = sdiv x, n
    s = add s, e
    s = add s, f
    s = add s, f2
    ret s
out:
    ret 0
}
