; passes: bounds-check-elim
; entry: main
; args: 8, 8
; expect: trap index_oob
; Near miss: `i <u 9` after `get a[7]`: `i` may be 8 = len(a); the check stays and traps.
fn f(a: vec<i64>, i: i64) -> i64 {
    var c: bool
    var x: i64
    var y: i64
entry:
    x = get a[7]
    c = ult i, 9
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
