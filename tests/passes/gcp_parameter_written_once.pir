; passes: global-copy-prop
; entry: main
; args: 5
; expect: value 17
; A parameter written exactly once is a copy source like any local written once, when that
; write dominates the copy: `e = copy n` after `n = add n, 1` is forwarded (`e`'s reads read
; `n`). Near miss: `d = copy n` comes before the write, so `d` keeps the incoming 5.
; d = 5, n = 6, e = 6: 5 + 6 + 6 = 17 (forwarding `d` too would give 18).
fn main(n: i64) -> i64 {
    var d: i64
    var e: i64
    var r: i64
entry:
    d = copy n
    n = add n, 1
    e = copy n
    r = add d, e
    r = add r, e
    ret r
}
