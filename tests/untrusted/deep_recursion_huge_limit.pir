; The largest call-depth limit: the JIT refuses it (its frames could not fit the largest run
; stack, so deep recursion would overflow the machine stack before the limit traps); the
; interpreter keeps its frames on the heap and runs.
; entry: main
; args: 100000
; flags: --max-depth 4294967295
; expect: error the call-depth limit 4294967295 is too large for this module
; expect-interp: value 100000
fn main(n: i64) -> i64 {
    var c: bool
    var m: i64
    var r: i64
entry:
    c = sle n, 0
    brif c, base, rec
base:
    ret 0
rec:
    m = sub n, 1
    r = call main(m)
    r = add r, 1
    ret r
}
