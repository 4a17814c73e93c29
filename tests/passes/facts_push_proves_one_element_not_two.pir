; passes: bounds-check-elim
; entry: main
; args: 4
; expect: trap pop_empty
; Near miss: nothing is known of the parameter `b`'s length, so `push b, x` proves one element
; (the first pop goes) but not two: the second pop keeps its check and traps on the empty vec
; `main` passes.
fn f(b: vec<i64>, x: i64) -> i64 {
    var s: i64
    var t: i64
entry:
    push b, x
    s = pop b
    t = pop b
    s = add s, t
    ret s
}

fn main(x: i64) -> i64 {
    var b: vec<i64>
    var t: i64
entry:
    b = new vec<i64>
    t = call f(b, x)
    ret t
}
