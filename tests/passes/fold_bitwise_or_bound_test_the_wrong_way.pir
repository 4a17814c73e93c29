; passes: range-check-fold
; entry: main
; args: -1
; expect: value 1
; Near miss of the bitwise form: `(i < 0) | (i < n)` is not a range check (the bound test
; points the wrong way: it is true for small `i`, not for large ones), and neither is
; `(i >= 0) & (i >= n)`. Neither folds. Folding them to `i <u n` / `i >=u n` would answer
; false for i = -1 (a huge unsigned number), where both forms are true: `main(-1)` would
; return 0 instead of 1.
fn or_low(i: i64) -> i64 {
    var a: bool
    var b: bool
    var c: bool
    var r: i64
entry:
    a = slt i, 0
    b = slt i, 16
    c = or a, b
    r = zext c
    ret r
}

fn and_high(i: i64) -> i64 {
    var a: bool
    var b: bool
    var c: bool
    var r: i64
entry:
    a = sge i, 0
    b = sge i, 16
    c = and a, b
    r = zext c
    ret r
}

fn main(i: i64) -> i64 {
    var a: i64
    var b: i64
    var r: i64
entry:
    a = call or_low(i)
    b = call and_high(i)
    b = xor b, 1
    r = and a, b
    ret r
}
