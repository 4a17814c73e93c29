; passes: bounds-check-elim
; entry: main
; args: 5
; expect: value 6
; Near miss of `bce_count_to_any_bound_keeps_nonneg.pir`: the loop runs while `k <= n`, and for
; n = i64::MAX `k + 1` would wrap, so no constraint follows for the next `k`, `k >= 0` is lost
; at the header, and the check on `a[k]` stays (it never fails here: `k < m` guards it).
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
    c = sle k, n
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
