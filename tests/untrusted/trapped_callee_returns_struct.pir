; Issue 14, witness 5: a trapped callee's struct result is never read; the caller would index
; a vec with its field.
; entry: main
; args: 0
; expect: trap pop_empty
struct S { i: i32, j: i32 }

fn make(k: i64) -> S {
    var v: vec<i64>
    var x: i64
    var s: S
    var t: i32
entry:
    v = new vec<i64>
    x = pop v
    t = trunc x
    s = make S(t, t)
    ret s
}

fn main(k: i64) -> i64 {
    var s: S
    var v: vec<i64>
    var i: i32
    var j: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 1
    s = call make(k)
    i = getfield s.i
    j = sext i
    set v[j], 5
    x = get v[j]
    ret x
}
