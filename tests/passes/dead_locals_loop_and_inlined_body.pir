; passes: inline, dead-local-elim
; entry: main
; args: 5
; expect: value 36
; A dead accumulator cycle goes while the loop counter stays. Strong liveness finds `i` live
; out of `step` only in its second sweep (across the back edge): it must walk `step` again, as
; `step` defines `i` (its write, dead in the first walk, now needs `t`), and `body` after it
; (which defines `t`); `odd` and `head` define none of what their live-out sets gained and are
; not walked again. The inlined body of `add3` sits at the end of the instruction arena but in
; the middle of `main`: the arena is compacted into placement order around it, past the
; removed instructions.
fn add3(a: i64, b: i64) -> i64 {
    var t: i64
    var u: i64
entry:
    t = add a, b
    u = mul t, 3
    ret u
}

fn main(n: i64) -> i64 {
    var i: i64
    var acc: i64
    var k: i64
    var c: bool
    var d: bool
    var t: i64
    var unused: i64
    var r: i64
    var s: i64
entry:
    i = copy 0
    acc = copy 0
    k = copy 7
    br head
head:
    c = slt i, n
    brif c, body, exit
body:
    acc = add acc, i
    t = add i, 1
    d = eq i, 3
    brif d, odd, step
odd:
    br step
step:
    i = copy t
    br head
exit:
    r = call add3(i, k)
    s = add r, 0
    ret s
}
