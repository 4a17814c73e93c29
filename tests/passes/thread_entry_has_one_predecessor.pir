; passes: branch-threading
; entry: main
; args: 3
; expect: value 2
; Near miss (a miscompile found by mutation testing, 2026-12-02): the function's entry block
; is also entered when the function starts, an edge the CFG does not list. Here `entry`'s
; only CFG predecessor is `back`, which goes to `entry` only when `t` is true; but the first
; time `entry` runs, `t` is false (every local starts at 0). So the value of `t` on the edges
; `entry -> c` and `side -> c` is not known, and neither edge may be threaded to `yes` (the
; walk back stopped at `back` and threaded both: 1 instead of 2).
fn main(n: i64) -> i64 {
    var t: bool
    var u: bool
    var r: bool
    var k: i64
entry:
    k = add k, 1
    u = slt k, 2
    brif u, c, side
side:
    br c
c:
    r = copy t
    brif t, yes, no
yes:
    ret k
no:
    t = slt k, n
    brif t, back, out
back:
    brif t, entry, out
out:
    ret 0
}
