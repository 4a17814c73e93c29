; passes: bounds-check-elim
; entry: main
; args: 3, 9223372036854775807
; expect: trap index_oob
; Near miss: with only `i >= 0`, `t = i + 1` may wrap to i64::MIN (i = i64::MAX), which passes
; `t < len(a)`: no constraint is derived for `t`, the check stays and traps.
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
