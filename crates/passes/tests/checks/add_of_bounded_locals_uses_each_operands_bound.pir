; passes: bounds-check-elim
; runs: main(0, 0) main(1, 1) main(0, 2) main(1, 7) main(3, 5)
; traps: main(1, 7)
; contains: main |     v = get a[d]\n
; missed: index check kept
; `d = x + y` with `0 <= x <= 1` and `0 <= y <= 7` gives `d <= x + 7` and `d <= y + 1`, so
; `d <= 8`: the index into a vec of three elements keeps its check (it traps for x = 1,
; y = 7). Each order of the operands must take the other operand's bound (`d <= x + 1` would
; remove the check).
fn main(p: i64, q: i64) -> i64 {
    var x: i64
    var y: i64
    var d: i64
    var a: vec<i64>
    var v: i64
entry:
    x = and p, 1
    y = and q, 7
    a = new vec<i64>
    push a, 10
    push a, 20
    push a, 30
    d = add x, y
    v = get a[d]
    ret v
}
