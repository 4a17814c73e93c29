; passes: copy-prop, dead-local-elim, simplify-cfg
; entry: main
; args: 4
; expect: value 9
; Copies propagate, dead pure computations and unused locals go, an empty block is threaded and
; a single-predecessor block merges; a dead division stays (it may trap).
fn main(x: i64) -> i64 {
    var a: i64
    var b: i64
    var dead: i64
    var q: i64
    var c: bool
entry:
    a = copy x
    b = add a, 5
    dead = mul a, 3
    q = sdiv x, 2
    br mid
mid:
    br tail
tail:
    c = eq b, 9
    brif c, same, same
same:
    ret b
}
