; passes: inline
; entry: main
; args: 10
; expect: value 55
; Recursive and mutually recursive functions stay calls; the small non-recursive helper is
; inlined into them.
fn add1(x: i64, y: i64) -> i64 {
    var s: i64
entry:
    s = add x, y
    ret s
}

fn even_sum(n: i64) -> i64 {
    var c: bool
    var m: i64
    var r: i64
entry:
    c = sle n, 0
    brif c, base, step
base:
    ret 0
step:
    m = sub n, 1
    r = call odd_sum(m)
    r = call add1(r, n)
    ret r
}

fn odd_sum(n: i64) -> i64 {
    var c: bool
    var m: i64
    var r: i64
entry:
    c = sle n, 0
    brif c, base, step
base:
    ret 0
step:
    m = sub n, 1
    r = call even_sum(m)
    r = call add1(r, n)
    ret r
}

fn main(n: i64) -> i64 {
    var r: i64
entry:
    r = call even_sum(n)
    ret r
}
