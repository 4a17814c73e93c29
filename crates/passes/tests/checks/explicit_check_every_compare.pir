; passes: bounds-check-elim
; Explicit range checks (`brif c, fail, ok` where `fail` only traps) over `i = and x, 7`, so
; 0 <= i <= 7: every compare op, decided on the passing side (`d_<op>`: the check goes), and the
; same check against a bound one step tighter, which the facts cannot decide (`n_<op>`: it stays
; and traps at x = 7, or x = 0 for the ops whose passing side is false).
; lacks: d_slt | brif c,
; contains: n_slt |     brif c,
; lacks: d_sle | brif c,
; contains: n_sle |     brif c,
; lacks: d_sgt | brif c,
; contains: n_sgt |     brif c,
; lacks: d_sge | brif c,
; contains: n_sge |     brif c,
; lacks: d_eq | brif c,
; contains: n_eq |     brif c,
; lacks: d_ne | brif c,
; contains: n_ne |     brif c,
; lacks: d_ult | brif c,
; contains: n_ult |     brif c,
; lacks: d_ule | brif c,
; contains: n_ule |     brif c,
; lacks: d_ugt | brif c,
; contains: n_ugt |     brif c,
; lacks: d_uge | brif c,
; contains: n_uge |     brif c,
; stat: bounds-check-elim explicit_checks_removed = 10
; stat: bounds-check-elim explicit_checks_kept = 10
; runs: d_slt(7) d_slt(0) d_slt(-1) n_slt(3) d_sle(7) d_sle(0) d_sle(-1) n_sle(3) d_sgt(7) d_sgt(0) d_sgt(-1) n_sgt(3) d_sge(7) d_sge(0) d_sge(-1) n_sge(3) d_eq(7) d_eq(0) d_eq(-1) n_eq(3) d_ne(7) d_ne(0) d_ne(-1) n_ne(3) d_ult(7) d_ult(0) d_ult(-1) n_ult(3) d_ule(7) d_ule(0) d_ule(-1) n_ule(3) d_ugt(7) d_ugt(0) d_ugt(-1) n_ugt(3) d_uge(7) d_uge(0) d_uge(-1) n_uge(3)
; traps: n_slt(7)
; traps: n_sle(7)
; traps: n_sgt(7)
; traps: n_sge(7)
; traps: n_eq(7)
; traps: n_ne(7)
; traps: n_ult(7)
; traps: n_ule(7)
; traps: n_ugt(7)
; traps: n_uge(7)
fn d_slt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = slt i, 8
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn n_slt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = slt i, 7
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn d_sle(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sle i, 7
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn n_sle(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sle i, 6
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn d_sgt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sgt i, 7
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn n_sgt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sgt i, 6
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn d_sge(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sge i, 8
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn n_sge(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = sge i, 7
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn d_eq(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = eq i, 8
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn n_eq(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = eq i, 7
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn d_ne(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ne i, 8
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn n_ne(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ne i, 7
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn d_ult(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ult i, 8
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn n_ult(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ult i, 7
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn d_ule(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ule i, 7
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn n_ule(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ule i, 6
    brif c, ok, fail
fail:
    trap "bad index"
ok:
    ret i
}
fn d_ugt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ugt i, 7
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn n_ugt(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = ugt i, 6
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn d_uge(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = uge i, 8
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
fn n_uge(x: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = and x, 7
    c = uge i, 7
    brif c, fail, ok
fail:
    trap "bad index"
ok:
    ret i
}
