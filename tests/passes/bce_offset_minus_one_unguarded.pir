; passes: bounds-check-elim
; entry: main
; args: 3, 0
; expect: trap index_oob
; Near miss: under `0 <= i < len(a)` (the test is `i > -1`), `i - 1` may be -1: the check of
; `a[i-1]` stays and traps for i = 0.
fn f(a: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var j: i64
    var x: i64
entry:
    n = len a
    c = slt i, n
    brif c, low, out
low:
    c = sgt i, -1
    brif c, read, out
read:
    j = sub i, 1
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
