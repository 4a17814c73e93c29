; passes: bounds-check-elim
; entry: main
; args: 4
; expect: value 60
; A count-down loop `i = len(a); while i > 0 { i = i - 1; a[i] }`: `i <= len(a)` holds at the
; head (it starts equal and only decreases), `i > 0` makes `i - 1` exact and non-negative: the
; check goes.
fn f(a: vec<i64>) -> i64 {
    var s: i64
    var i: i64
    var c: bool
    var x: i64
entry:
    s = copy 0
    i = len a
    br head
head:
    c = sgt i, 0
    brif c, body, done
body:
    i = sub i, 1
    x = get a[i]
    s = add s, x
    br head
done:
    ret s
}

fn fill(v: vec<i64>, n: i64) {
    var k: i64
    var c: bool
    var x: i64
entry:
    k = copy 0
    br head
head:
    c = slt k, n
    brif c, body, done
body:
    x = mul k, 10
    push v, x
    k = add k, 1
    br head
done:
    ret
}

fn main(n: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    call fill(a, n)
    r = call f(a)
    ret r
}
