; issue 14's witness: an out-of-bounds read and write at an index the input chooses.
; The verifier refuses the unchecked forms (without --trust-unchecked).
; entry: main
; args: 100000000
; expect: error `get.unchecked` is not allowed in untrusted IR
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, 1
    x = get.unchecked v[i]
    set.unchecked v[i], 12345
    ret x
}
