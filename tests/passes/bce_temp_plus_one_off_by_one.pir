; passes: bounds-check-elim
; entry: main
; args: 3, 2
; expect: trap index_oob
; Near miss: the test is on `i` (`i < len(a)`), the access at `t = i + 1` may be `len(a)`:
; the check stays and traps for i = len(a) - 1.
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
    brif c, read, out
read:
    t = add i, 1
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
