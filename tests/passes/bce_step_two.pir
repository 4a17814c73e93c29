; passes: bounds-check-elim
; entry: main
; args: 6
; expect: value 150
; A loop with step 2 under `i + 1 < len(a)`: `t = i + 1 < len(a)` bounds both accesses,
; and `i + 2` cannot wrap (`i <= len(a) - 2`), so `i >= 0` survives the back edge: both checks go.
fn f(a: vec<i64>) -> i64 {
    var s: i64
    var i: i64
    var t: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    s = copy 0
    i = copy 0
    br head
head:
    n = len a
    t = add i, 1
    c = slt t, n
    brif c, body, done
body:
    x = get a[i]
    s = add s, x
    x = get a[t]
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
