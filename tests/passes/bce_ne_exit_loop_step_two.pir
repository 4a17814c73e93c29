; passes: bounds-check-elim
; entry: main
; args: 3
; expect: trap index_oob
; Near miss: `i != len(a)` with step 2 skips the bound for an odd length: the check stays
; and traps for len 3.
fn f(a: vec<i64>) -> i64 {
    var s: i64
    var i: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    s = copy 0
    i = copy 0
    br head
head:
    n = len a
    c = ne i, n
    brif c, body, done
body:
    x = get a[i]
    s = add s, x
    i = add i, 2
    br head
done:
    ret s
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
