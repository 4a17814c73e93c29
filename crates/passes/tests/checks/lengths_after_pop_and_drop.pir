; passes: bounds-check-elim
; Lengths after a pop and after a drop, from the transfer.rs mutation run. A pop lowers the
; length by exactly one, so after `n = len v; pop v` the new length is `n - 1 < n`: the explicit
; check `len v >= n` goes, whether `v` is alone (`pop_local`, one `new`) or may alias another
; handle of its type (`pop_param`, two parameters). A drop empties only the vecs that may be
; the dropped one: `drop w` of another `new` leaves `len(v) > 0`, and the pop is proved
; (`drop_other`); the near miss drops a copy of `v` (`drop_copy`: the pop keeps its check and
; traps).
; lacks: pop_local | brif c,
; lacks: pop_param | brif c,
; lacks: drop_other |     t = pop v\n
; contains: drop_copy |     t = pop v\n
; stat: bounds-check-elim explicit_checks_removed = 2
; runs: pop_local(3) main(4) drop_other(5)
; traps: drop_copy(5)
; returns: pop_local(3)
; returns: main(4)
; returns: drop_other(5)
fn pop_local(x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var m: i64
    var t: i64
    var c: bool
entry:
    v = new vec<i64>
    push v, x
    push v, x
    n = len v
    t = pop v
    m = len v
    c = sge m, n
    brif c, fail, ok
fail:
    trap "len v >= n after a pop"
ok:
    ret m
}

fn pop_param(v: vec<i64>, w: vec<i64>) -> i64 {
    var n: i64
    var m: i64
    var t: i64
    var c: bool
entry:
    push v, 1
    push w, 2
    n = len v
    t = pop v
    m = len v
    c = sge m, n
    brif c, fail, ok
fail:
    trap "len v >= n after a pop"
ok:
    ret m
}

fn main(x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    w = new vec<i64>
    push v, x
    r = call pop_param(v, w)
    ret r
}

fn drop_other(x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var t: i64
entry:
    v = new vec<i64>
    w = new vec<i64>
    push v, x
    push w, x
    drop w
    t = pop v
    ret t
}

fn drop_copy(x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var t: i64
entry:
    v = new vec<i64>
    w = copy v
    push v, x
    drop w
    t = pop v
    ret t
}
