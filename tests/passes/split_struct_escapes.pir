; passes: struct-split, dead-local-elim
; entry: main
; args: 3
; expect: value 63
; Structs that need their bytes in memory stay whole, each with a remark: a parameter, a
; call's argument and its result, a returned local, a local assigned by `pop`. A local copied
; from a parameter and into a returned local is split: the copies become field reads and a
; `make`.
struct P { x: i64, y: i64 }

fn shift(p: P, k: i64) -> P {
    var q: P
    var r: P
    var x: i64
entry:
    q = copy p
    x = getfield q.x
    x = add x, k
    setfield q.x, x
    r = copy q
    ret r
}

fn main(k: i64) -> i64 {
    var v: vec<P>
    var a: P
    var b: P
    var c: P
    var x: i64
    var y: i64
entry:
    v = new vec<P>
    a = make P(10, 20)
    b = call shift(a, k)
    push v, b
    c = pop v
    x = getfield c.x
    y = getfield c.y
    x = add x, y
    y = getfield b.y
    x = add x, y
    y = getfield a.x
    x = add x, y
    ret x
}
