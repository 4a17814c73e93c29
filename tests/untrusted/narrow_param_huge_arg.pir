; An argument wider than its i8 parameter wraps to the parameter's width (300 -> 44) before
; it is used as a loop bound.
; entry: main
; args: 300
; expect: value 44
fn main(n: i8) -> i64 {
    var v: vec<i8>
    var i: i8
    var c: bool
    var r: i64
entry:
    v = new vec<i8>
    i = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    push v, i
    i = add i, 1
    br head
done:
    r = len v
    ret r
}
