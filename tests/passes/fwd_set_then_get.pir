; passes: store-load-forward
; entry: main
; args: 1, 42
; expect: value 42
; `set v[k], x` then `y = get v[k]` with only a `len` and a `push` between: the get becomes
; `y = copy x` (the push appends: element k keeps its value and the length only grows).
fn main(k: i64, x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    set v[k], x
    n = len v
    push v, 7
    y = get v[k]
    ret y
}
