; passes: bounds-check-elim
; entry: main
; expect: value 7
; After `new` and three pushes `len(v) > 2`: the check of the constant index 2 goes.
fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    r = get v[2]
    ret r
}
