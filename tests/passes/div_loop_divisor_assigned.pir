; passes: div-check-elim
; entry: main
; args: 100, 3
; expect: trap div_zero
; Near miss: the loop assigns the divisor (`k = k - 1`), so one test before the loop would not
; cover the later iterations: no copy; the check stays and traps when `k` reaches 0 (third
; iteration), as at O0.
fn main(x: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
entry:
    i = copy 0
    acc = copy 0
    br head
head:
    c = slt i, 10
    brif c, body, done
body:
    k = sub k, 1
    q = sdiv x, k
    acc = add acc, q
    i = add i, 1
    br head
done:
    ret acc
}
