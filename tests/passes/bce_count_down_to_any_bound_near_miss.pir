; passes: bounds-check-elim
; entry: main
; args: -1
; expect: value 6
; Near miss of `bce_count_down_to_any_bound.pir`: the loop runs while `m <= k`, and for
; m = i64::MIN `k - 1` would wrap, so no constraint follows for the next `k`, `k < len(a)` is
; lost at the header, and the check on `a[k]` stays (it never fails here: `k >= 0` guards the
; low side and the count starts below the length).
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
    c = sle m, k
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
