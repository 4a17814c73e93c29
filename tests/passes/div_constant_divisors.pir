; passes: div-check-elim
; entry: main
; args: -9223372036854775808
; expect: value -9223372036854775803
; Constant divisors are decided from the constant at the operand width: `sdiv x, 7`,
; `srem x, -1` (srem by -1 is defined) and `udiv m, 255` (255 is not 0 at i8) lose their
; test; near misses: `sdiv x, -1` keeps it (MIN / -1 takes the checked path and gives MIN),
; and so does `sdiv n, 255`, which divides by -1 at i8.
; x = MIN: a = MIN / -1 = MIN; b = MIN % -1 = 0; c = (MIN / 7) * 0 = 0;
; n = 5, m = 5 / -1 = -5 (i8); u = 251 udiv 255 = 0 (i8, unsigned); m = u - m = 5;
; the result is a + b + c + sext(m) = MIN + 5.
fn main(x: i64) -> i64 {
    var a: i64
    var b: i64
    var c: i64
    var d: i64
    var n: i8
    var m: i8
    var u: i8
entry:
    a = sdiv x, -1
    b = srem x, -1
    c = sdiv x, 7
    c = mul c, 0
    n = copy 5
    m = sdiv n, 255
    u = udiv m, 255
    m = sub u, m
    d = sext m
    a = add a, b
    a = add a, c
    a = add a, d
    ret a
}
