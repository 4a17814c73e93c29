; passes: bounds-check-elim
; entry: main
; args: 5
; expect: value 10
; A loop that pushes once per iteration fills `v` to `n` elements: `k == 0` and `len(v) == 0`
; on entry become `k == len(v)` at the header, which `push v; k = k + 1` keeps; the exit gives
; `k >= n`, so `len(v) >= n`. The second loop's `j < n` then proves `v[j]`: both checks go.
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var k: i64
    var j: i64
    var c: bool
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
    push v, k
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
