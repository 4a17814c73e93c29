; passes: value-numbering
; entry: main
; args: 0
; expect: value 3221
; `len v` across calls. A call that receives `v` may change its length (`shrink` pops it):
; the `len v` after it is not numbered (3, then 2), with a remark. A call that only receives a
; vec of another type (`touch`, a `vec<i32>`) cannot reach `v`: the `len v` after it is a copy
; of the one before (both 2). An expression computed again into the local that holds it
; (`q = add k, 1` twice) stays as it is: `q` already holds the value.
fn shrink(v: vec<i64>) {
entry:
    pop v
    ret
}

fn touch(w: vec<i32>) {
entry:
    push w, 1
    ret
}

fn main(k: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i32>
    var n1: i64
    var n2: i64
    var n3: i64
    var q: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    w = new vec<i32>
    n1 = len v
    call shrink(v)
    n2 = len v
    call touch(w)
    n3 = len v
    q = add k, 1
    q = add k, 1
    r = mul n1, 1000
    n1 = mul n2, 100
    r = add r, n1
    n1 = mul n3, 10
    r = add r, n1
    r = add r, q
    ret r
}
