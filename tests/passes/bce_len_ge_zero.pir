; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: `len(v) >= 0` always holds and proves nothing about emptiness: the check stays.
fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    n = len v
    c = sge n, 0
    brif c, have, empty
have:
    x = pop v
    ret x
empty:
    ret -1
}
