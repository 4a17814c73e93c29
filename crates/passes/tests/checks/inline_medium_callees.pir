; passes: inline
; runs: main(0) main(3)
; stat: inline calls_inlined = 3
; stat: inline calls_kept = 4
; applied: call of `m2` inlined (20 instructions; its only call site)
; applied: call of `m3` inlined (20 instructions; called in a loop)
; applied: call of `edge` inlined (160 instructions; called in a loop)
; missed: call of `m1` kept: 20 instructions, more than 16, called from 2 sites and not in a loop
; missed: call of `m3` kept: 20 instructions, more than 16, called from 2 sites and not in a loop
; missed: call of `big` kept: too large (161 instructions; the limit is 160)
; The inliner's rules for callees larger than SMALL (16) and at most MEDIUM (160), each with its
; near miss: inlined in a loop (`m3` in the loop, `edge` at exactly 160) or from its only call
; site (`m2`); kept outside a loop when called from several sites (`m1` twice, `m3`'s second
; call) and when larger than MEDIUM (`big`, 161, in a loop). The caller stays far inside its
; budget (its original size + 400).
fn m1(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    ret t
}

fn m2(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    ret t
}

fn m3(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    ret t
}

fn big(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    ret t
}

fn edge(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    t = add t, 5
    t = add t, 6
    t = add t, 7
    t = add t, 1
    t = add t, 2
    t = add t, 3
    t = add t, 4
    ret t
}

fn main(n: i64) -> i64 {
    var s: i64
    var i: i64
    var c: bool
entry:
    s = copy n
    s = call m1(s)
    s = call m1(s)
    s = call m2(s)
    s = call m3(s)
    i = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    s = call m3(s)
    s = call big(s)
    s = call edge(s)
    i = add i, 1
    br head
done:
    ret s
}
