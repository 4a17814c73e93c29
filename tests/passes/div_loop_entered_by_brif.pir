; passes: div-check-elim
; entry: main
; args: 4, 3
; expect: value 1
; The loop is entered from a block that ends in `brif` (its other successor is the exit):
; the test of `k` goes into a new block `head_divtest` on the edge into the loop only, and
; the `brif`'s other edge still goes straight to `done`.
; Sum of i / 3 for i in 0..4: 0+0+0+1 = 1.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
    var go: bool
entry:
    i = copy 0
    acc = copy 0
    go = sgt n, 0
    brif go, head, done
head:
    c = slt i, n
    brif c, body, done
body:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head
done:
    ret acc
}
