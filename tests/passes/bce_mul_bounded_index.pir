; passes: bounds-check-elim
; entry: main
; args: 12, 2
; expect: value 80
; A multiple of a bounded index: `0 <= i <= 2` and `j = 4 * i` give `0 <= j <= 8` (no
; overflow), and `len(a) >= 12`: the check goes.
fn f(a: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var j: i64
    var x: i64
entry:
    n = len a
    c = sge n, 12
    brif c, test, out
test:
    c = ult i, 3
    brif c, read, out
read:
    j = mul i, 4
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
