; passes: bounds-check-elim
; entry: main
; args: 4
; expect: value 60
; A loop with the exit test `i != len(a)` and step 1: `i <= len(a)` holds at the head (it
; starts at 0 and is below the length before each increment), so `i != len(a)` means
; `i < len(a)`: the check goes.
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
    i = add i, 1
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
