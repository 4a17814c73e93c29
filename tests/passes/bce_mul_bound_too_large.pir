; passes: bounds-check-elim
; entry: main
; args: 12, 3
; expect: trap index_oob
; Near miss: `i <u 4` lets `j = 4 * i` reach 12 = len(a): the check stays and traps for i = 3.
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
    c = ult i, 4
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
