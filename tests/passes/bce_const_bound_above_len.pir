; passes: bounds-check-elim
; entry: main
; args: 10, 10
; expect: trap index_oob
; Near miss: `i <u 11` with only `len(a) >= 10`: `i` may be 10 = len(a); the check stays and
; traps for i = 10 on a 10-element vec.
fn f(a: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len a
    c = sge n, 10
    brif c, test, out
test:
    c = ult i, 11
    brif c, read, out
read:
    x = get a[i]
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
