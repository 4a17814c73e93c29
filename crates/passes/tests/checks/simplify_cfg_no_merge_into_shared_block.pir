; passes: simplify-cfg
; runs: main(0) main(1) main(-2)
; `a: br b` where `b` has two predecessors: `b` is not merged into `a` (the other edge still
; needs it), and nothing else changes.
; contains: main | a:\n    x = add x, 1\n    br b\n
; contains: main | b:\n    x = mul x, 2\n    ret x\n
; stat: simplify-cfg blocks_merged = 0
fn main(k: i64) -> i64 {
    var c: bool
    var x: i64
entry:
    x = copy k
    c = sgt k, 0
    brif c, a, b
a:
    x = add x, 1
    br b
b:
    x = mul x, 2
    ret x
}
