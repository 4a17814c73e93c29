; passes: bounds-check-elim
; entry: main
; args: 5
; expect: value 6
; A counter from 0 while `k < n` for an arbitrary `n`: `k + 1` cannot wrap (`k < n` gives
; `k <= i64::MAX - 1`, every value being at most i64::MAX), so `k >= 0` carries around the
; loop, and with `k < m`, `m == len(a)` inside the `if`, `a[k]` needs no check. a = [0,1,2,3]
; (four pushes), n = 5: 0+1+2+3 = 6.
fn f(a: vec<i64>, n: i64) -> i64 {
    var k: i64
    var m: i64
    var c: bool
    var s: i64
    var x: i64
entry:
    k = copy 0
    s = copy 0
    m = len a
    br head
head:
    c = slt k, n
    brif c, test, done
test:
    c = slt k, m
    brif c, body, next
body:
    x = get a[k]
    s = add s, x
    br next
next:
    k = add k, 1
    br head
done:
    ret s
}

fn main(n: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    push a, 0
    push a, 1
    push a, 2
    push a, 3
    r = call f(a, n)
    ret r
}
