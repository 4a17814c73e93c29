; passes: range-check-fold
; entry: main
; args: -1, 3
; expect: value 7
; Bound-first range checks `i >= n || i < 0` (n = x & 255, non-negative) where the bound
; compare is read again before its branch. In `read_after` the compare is the first
; instruction of its block and `r = zext c` reads it: rewriting `c` in place would give `r` the
; unsigned answer (1 for i = -1) on the path to `out`, which returns `r`; the fold appends a
; recompute of `c` before the branch instead, and `r` keeps the signed answer 0. In
; `other_read` the instruction after the compare reads only `i`, so the compare is rewritten in
; place. main(-1, 3) = 1000 * read_after + other_read = 0 + 7.
fn read_after(i: i64, x: i64) -> i64 {
    var n: i64
    var c: bool
    var c2: bool
    var r: i64
entry:
    n = and x, 255
    br a
a:
    c = sge i, n
    r = zext c
    brif c, out, chk
chk:
    c2 = slt i, 0
    brif c2, out, ok
out:
    ret r
ok:
    ret 100
}

fn other_read(i: i64, x: i64) -> i64 {
    var n: i64
    var c: bool
    var c2: bool
    var t: i64
entry:
    n = and x, 255
    c = sge i, n
    t = add i, 1
    brif c, out, chk
chk:
    c2 = slt i, 0
    brif c2, out, ok
out:
    ret 7
ok:
    ret t
}

fn main(i: i64, x: i64) -> i64 {
    var a: i64
    var b: i64
    var r: i64
entry:
    a = call read_after(i, x)
    b = call other_read(i, x)
    r = mul a, 1000
    r = add r, b
    ret r
}
