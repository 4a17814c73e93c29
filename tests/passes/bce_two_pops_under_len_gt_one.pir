; passes: bounds-check-elim
; entry: main
; args: 2
; expect: value 10
; `len(a) > 1` covers two pops: each pop lowers the known bound by one (`len(a) > 0`
; after the first): both checks go.
fn f(a: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    n = len a
    c = sgt n, 1
    brif c, take, out
take:
    x = pop a
    y = pop a
    x = add x, y
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

fn main(n: i64) -> i64 {
    var a: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    call fill(a, n)
    r = call f(a)
    ret r
}
