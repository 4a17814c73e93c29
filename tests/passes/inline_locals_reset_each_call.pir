; passes: inline
; entry: main
; args: 4
; expect: value 10
; The callee reads `acc` before writing it: a fresh frame has it zero. Inlined into a loop,
; the copy resets it on every iteration (without the reset the loop would sum 1+3+6+10 = 20).
fn plus(x: i64) -> i64 {
    var acc: i64
entry:
    acc = add acc, x
    ret acc
}

fn main(n: i64) -> i64 {
    var i: i64
    var s: i64
    var t: i64
    var c: bool
entry:
    i = copy 1
    s = copy 0
    br head
head:
    c = sle i, n
    brif c, body, done
body:
    t = call plus(i)
    s = add s, t
    i = add i, 1
    br head
done:
    ret s
}
