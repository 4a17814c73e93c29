; A large call-depth limit that fits the run stack: recursion deeper than it traps
; stack_overflow in the JIT at every level, never overflowing the machine stack.
; entry: main
; args: 1000000
; flags: --max-depth 300000
; expect: trap stack_overflow
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
