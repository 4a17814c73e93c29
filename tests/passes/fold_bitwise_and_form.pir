; passes: range-check-fold
; entry: main
; args: 3, 10
; expect: value 1
; The bitwise form `(i >= 0) & (i < n)` with a non-negative constant bound folds to `i <u n`;
; the short-circuit `&&` form on i32 with a vec-length-free constant bound folds too.
fn in_range(i: i64, n: i64) -> i64 {
    var a: bool
    var b: bool
    var c: bool
    var r: i64
entry:
    a = sge i, 0
    b = slt i, 16
    c = and a, b
    r = zext c
    ret r
}

fn narrow(x: i32) -> i64 {
    var c: bool
entry:
    c = sge x, 0
    brif c, hi, no
hi:
    c = slt x, 100
    brif c, yes, no
yes:
    ret 1
no:
    ret 0
}

fn main(i: i64, j: i64) -> i64 {
    var a: i64
    var b: i64
    var x: i32
    var r: i64
entry:
    a = call in_range(i, j)
    x = trunc j
    b = call narrow(x)
    r = mul a, b
    ret r
}
