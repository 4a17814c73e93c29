; passes: bounds-check-elim
; entry: main
; args: 4
; expect: trap pop_empty
; Near miss (issue 14, witness 2): after `push v` the length of `v` is known to be positive, but
; `v = new` makes `v` another, empty vec: the length fact dies with the reassignment and the pop
; keeps its check (a wrong removal crashed the JIT at O1).
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, a
    v = new vec<i64>
    x = pop v
    ret x
}
