; passes: bounds-check-elim
; entry: main
; args: -1
; expect: value 6
; Counting down from `len(a) - 1` while `m < k` for an arbitrary `m`: `k - 1` cannot wrap
; (`m < k` gives `k >= i64::MIN + 1`, every value being at least i64::MIN), so `k < len(a)`
; carries around the loop, and with `k >= 0` inside the `if`, `a[k]` needs no check.
; a = [0,1,2,3], m = -1: 3+2+1+0 = 6.
fn f(a: vec<i64>, m: i64) -> i64 {
    var k: i64
    var n: i64
    var c: bool
    var s: i64
    var x: i64
entry:
    n = len a
    k = sub n, 1
    s = copy 0
    br head
head:
    c = slt m, k
    brif c, test, done
test:
    c = sge k, 0
    brif c, body, next
body:
    x = get a[k]
    s = add s, x
    br next
next:
    k = sub k, 1
    br head
done:
    ret s
}

fn main(m: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    push a, 0
    push a, 1
    push a, 2
    push a, 3
    r = call f(a, m)
    ret r
}
