; passes: bounds-check-elim
; entry: main
; args: 3, 2
; expect: value 20
; `t = i + 1; j = t - 1` with `0 <= i < len(a)`: neither step can wrap (`i <= i64::MAX - 1`),
; so `j == i` and the check goes.
fn f(a: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var t: i64
    var j: i64
    var x: i64
entry:
    c = sge i, 0
    brif c, next, out
next:
    n = len a
    c = slt i, n
    brif c, go, out
go:
    t = add i, 1
    j = sub t, 1
    x = get a[j]
    ret x
out:
    ret -1
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

fn main(n: i64, i: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    call fill(a, n)
    r = call f(a, i)
    ret r
}
