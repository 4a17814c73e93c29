; `pop.unchecked` of an empty vec would read before the buffer and make the length negative.
; entry: main
; args: 0
; expect: error `pop.unchecked` is not allowed in untrusted IR
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    x = pop.unchecked v
    push v, n
    ret x
}
