; passes: dead-local-elim
; runs: main(1) main(-4)
; A write that the next write of the same local overwrites before any read is dead, and goes;
; the write that is read stays. (A liveness that forgot the redefinition would keep both.)
; lacks: main |     x = add k, 1\n
; contains: main |     x = mul k, 3\n
; stat: dead-local-elim insts_removed = 1
fn main(k: i64) -> i64 {
    var x: i64
entry:
    x = add k, 1
    x = mul k, 3
    ret x
}
