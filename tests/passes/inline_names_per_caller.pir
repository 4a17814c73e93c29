; passes: inline
; entry: main
; args: 5
; expect: value 40
; One callee copied twice into each of two callers (`f`, then `main`): each caller names the
; copies' locals after the callee's own (`g_t`, then `g_t_2`), whatever names the other caller
; took, and a local of the caller already named `g_t` moves the first copy's to `g_t_2`.
fn g(x: i64) -> i64 {
    var t: i64
entry:
    t = mul x, 2
    ret t
}

fn f(x: i64) -> i64 {
    var a: i64
    var b: i64
entry:
    a = call g(x)
    b = call g(a)
    ret b
}

fn main(x: i64) -> i64 {
    var g_t: i64
    var a: i64
    var b: i64
    var c: i64
entry:
    g_t = copy x
    a = call g(g_t)
    b = call f(a)
    c = call g(b)
    c = sub c, b
    ret c
}
