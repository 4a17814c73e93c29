; passes: store-load-forward
; entry: main
; args: 0, 9
; expect: value 9
; A field store forwarded to a field load in the next block of an extended basic block (its
; only predecessor holds the `set`).
struct P { a: i32, b: i64 }

fn main(k: i64, x: i64) -> i64 {
    var v: vec<P>
    var p: P
    var c: bool
    var y: i64
entry:
    v = new vec<P>
    p = make P(1, 2)
    push v, p
    set v[k].b, x
    c = sgt x, 0
    brif c, pos, neg
pos:
    y = get v[k].b
    ret y
neg:
    ret 0
}
