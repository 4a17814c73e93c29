; passes: bounds-check-elim
; entry: main
; args: 1
; expect: trap pop_empty
; Near miss: `len(a) > 0` covers only the first pop; the second stays and traps on a
; 1-element vec.
fn f(a: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    n = len a
    c = sgt n, 0
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
