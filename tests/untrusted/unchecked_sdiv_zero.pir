; `sdiv.unchecked` skips the divisor test: by 0 (or MIN by -1) the division would fault the
; process instead of trapping `div_zero`. Untrusted input may not hold it: `run` refuses it.
; entry: main
; args: 0
; expect: error `sdiv.unchecked` is not allowed in untrusted IR
fn main(n: i64) -> i64 {
    var q: i64
entry:
    q = sdiv.unchecked 7, n
    ret q
}
