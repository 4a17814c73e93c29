; passes: inline
; entry: main
; args: 3
; expect: value 331
; A parameter the callee never assigns is the argument itself in the copy: no `mix_x = copy a`.
; Both parameters may be the same local, and the call's destination may be that local: the
; returning block assigns it last, after every read of the parameters.
fn mix(x: i64, y: i64) -> i64 {
    var t: i64
entry:
    t = mul x, 10
    t = add t, y
    ret t
}

fn main(a: i64) -> i64 {
entry:
    a = call mix(a, a)
    a = call mix(a, 1)
    ret a
}
