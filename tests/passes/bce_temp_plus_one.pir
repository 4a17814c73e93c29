; passes: bounds-check-elim
; entry: main
; args: 3, 1
; expect: value 20
; A fresh temporary `t = i + 1` tested `t < len(a)`, then `a[t]`, for an index with
; `0 <= i < len(a)`: the add cannot wrap (`i <= i64::MAX - 1`), so `t >= 1`, and the test bounds
; `t` above: the check goes.
fn f(a: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var t: i64
    var x: i64
entry:
    c = sge i, 0
    brif c, test, out
test:
    n = len a
    c = slt i, n
    brif c, inner, out
inner:
    t = add i, 1
    c = slt t, n
    brif c, read, out
read:
    x = get a[t]
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
