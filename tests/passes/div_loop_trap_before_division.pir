; passes: div-check-elim
; entry: main
; args: 5
; expect: trap index_oob
; The divisor 5 passes the hoisted test, so the unchecked copy runs; in its third iteration
; the checked `get` before the division traps `index_oob` (the vec has two elements) at the
; same line as at O0: the copy keeps every other check and every location.
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var x: i64
    var acc: i64
    var c: bool
entry:
    v = new vec<i64>
    push v, 10
    push v, 20
    i = copy 0
    acc = copy 0
    br head
head:
    c = slt i, 4
    brif c, body, done
body:
    x = get v[i]
    x = sdiv x, k
    acc = add acc, x
    i = add i, 1
    br head
done:
    ret acc
}
