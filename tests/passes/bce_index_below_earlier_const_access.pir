; passes: bounds-check-elim
; entry: main
; args: 8, 7
; expect: value 140
; After `get a[7]` succeeds `len(a) > 7`; an index with `i <u 8` is then in range: the second
; check goes (the first stays: nothing is known before it).
fn f(a: vec<i64>, i: i64) -> i64 {
    var c: bool
    var x: i64
    var y: i64
entry:
    x = get a[7]
    c = ult i, 8
    brif c, read, out
read:
    y = get a[i]
    y = add x, y
    ret y
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
