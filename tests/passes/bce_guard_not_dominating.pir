; passes: bounds-check-elim
; entry: main
; args: 0
; expect: trap pop_empty
; Near miss: the length test is on one path into the pop's block only; on the other path nothing
; is known, so the check stays (and traps when that path is taken).
fn main(flag: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    c = ne flag, 0
    brif c, test, join
test:
    n = len v
    c = sgt n, 0
    brif c, join, out
join:
    x = pop v
    ret x
out:
    ret -1
}
