; passes: inline
; runs: main(2) main(0)
; stat: inline calls_inlined = 22
; stat: inline calls_kept = 131
; missed: call of `f` kept: the caller's growth budget is spent (645 of 644 instructions)
; The growth budget of a caller: `main`'s loop body holds 153 calls of `f`, a 21-instruction
; callee: larger than SMALL (16), so it is inlined only in a loop and within the caller's budget
; of max(GROWTH x original, original + MIN_BUDGET) = max(4 x 161, 161 + 400) = 644 instructions
; (`main` has 161, terminators included). Each inlined call adds 22 (the body, the parameter
; copy, the block split) and is allowed while the caller with the callee's 21 stays within the
; budget: after 21 calls the caller has 161 + 21 x 22 = 623, and 623 + 21 = 644 is exactly the
; budget, so the 22nd is inlined too (645); the other 131 are kept. With `original + MIN_BUDGET`
; (561) only 18 would fit, with the budget exceeded at equality 21, with no budget all of them.
fn f(x: i64) -> i64 {
    var t: i64
entry:
    t = copy x
    t = mul t, 3
    t = add t, 1
    t = xor t, 5
    t = and t, 1023
    t = add t, x
    t = sub t, 2
    t = mul t, 7
    t = and t, 4095
    t = add t, 3
    t = mul t, 3
    t = add t, 1
    t = xor t, 5
    t = and t, 1023
    t = add t, x
    t = sub t, 2
    t = mul t, 7
    t = and t, 4095
    t = add t, 3
    t = mul t, 3
    ret t
}

fn main(n: i64) -> i64 {
    var s: i64
    var i: i64
    var c: bool
entry:
    s = copy n
    i = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    s = call f(s)
    i = add i, 1
    br head
done:
    ret s
}
