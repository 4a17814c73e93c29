; passes: bounds-check-elim
; entry: main
; expect: trap index_oob
; Near miss: only `len(x) >= len(y)` is tested; `y[i]` for `i < len(x)` may be past the end:
; the check stays and traps for len(x) = 3, len(y) = 2.
fn f(x: vec<i64>, y: vec<i64>) -> i64 {
    var s: i64
    var i: i64
    var nx: i64
    var ny: i64
    var c: bool
    var e: i64
entry:
    s = copy 0
    nx = len x
    ny = len y
    c = sge nx, ny
    brif c, start, done
start:
    i = copy 0
    br head
head:
    nx = len x
    c = slt i, nx
    brif c, body, done
body:
    e = get y[i]
    s = add s, e
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

fn main() -> i64 {
    var x: vec<i64>
    var y: vec<i64>
    var r: i64
entry:
    x = new vec<i64>
    y = new vec<i64>
    call fill(x, 3)
    call fill(y, 2)
    r = call f(x, y)
    ret r
}
