; passes: bounds-check-elim
; entry: main
; args: 5
; expect: trap index_oob
; Near miss of bce_filled_by_counted_loop: the fill loop pushes only on even `k`, so
; `k == len(v)` does not survive its header (one path adds 1 to `k` but not to `len(v)`) and
; `len(v)` is 3 for n = 5. `set v[j]` keeps its check and traps at j = 3.
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var k: i64
    var j: i64
    var c: bool
    var t: i64
    var s: i64
    var x: i64
entry:
    v = new vec<i64>
    k = copy 0
    br fill_head
fill_head:
    c = slt k, n
    brif c, fill_body, fill_done
fill_body:
    t = and k, 1
    c = eq t, 0
    brif c, fill_push, fill_next
fill_push:
    push v, k
    br fill_next
fill_next:
    k = add k, 1
    br fill_head
fill_done:
    j = copy 0
    s = copy 0
    br use_head
use_head:
    c = slt j, n
    brif c, use_body, use_done
use_body:
    set v[j], j
    x = get v[j]
    s = add s, x
    j = add j, 1
    br use_head
use_done:
    ret s
}
