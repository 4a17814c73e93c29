; passes: bounds-check-elim
; entry: main
; args: 4, 3, 2
; expect: value 10
; `a[i-k]` under `k <= i < len(a)` with `k >= 0`: `i - k` cannot wrap (both non-negative),
; `i - k >= 0` from `k <= i`, `i - k <= i < len(a)` from `k >= 0`: the check goes.
fn f(a: vec<i64>, i: i64, k: i64) -> i64 {
    var n: i64
    var c: bool
    var j: i64
    var x: i64
entry:
    c = sge k, 0
    brif c, start, out
start:
    n = len a
    c = slt i, n
    brif c, low, out
low:
    c = sle k, i
    brif c, read, out
read:
    j = sub i, k
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

fn main(n: i64, i: i64, k: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    call fill(a, n)
    r = call f(a, i, k)
    ret r
}
