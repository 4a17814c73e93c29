; passes: copy-prop
; runs: main(1) main(0)
; A read in the terminator is propagated and counted; a struct copy is not propagated (left
; to temp-elision), nor is a self copy.
; contains: main |     brif x, yes, no\n
; contains: main |     a = getfield t.a\n
; stat: copy-prop copies_propagated = 1
; applied: copy `p = copy x` propagated: 1 later read of `p` now read `x`
; no-remark: `t = copy s`
fn main(k: i64) -> i64 {
    var x: bool
    var p: bool
    var s: S8
    var t: S8
    var a: i32
    var r: i64
entry:
    x = ne k, 0
    p = copy x
    s = make S8(7, 8)
    t = copy s
    t = copy t
    a = getfield t.a
    brif p, yes, no
yes:
    r = sext a
    ret r
no:
    ret 0
}

struct S8 { a: i32, b: i32 }
