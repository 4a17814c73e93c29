; passes: bounds-check-elim
; entry: main
; expect: value 12
; Two different callees take `v` and only read its length: neither can change it (the
; module's call effects), so the guard still covers the pop after both calls. Each callee
; gets its own entry in the call kills; a second callee must not be mistaken for an unknown
; one (which would keep the check).
fn size(w: vec<i64>) -> i64 {
    var n: i64
entry:
    n = len w
    ret n
}

fn twice_size(w: vec<i64>) -> i64 {
    var n: i64
entry:
    n = len w
    n = add n, n
    ret n
}

fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var a: i64
    var b: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    a = call size(v)
    b = call twice_size(v)
    r = pop v
    r = add r, a
    r = add r, b
    ret r
empty:
    ret -1
}
