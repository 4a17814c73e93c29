; passes: div-check-elim
; entry: main
; args: 7, 2
; expect: value 9
; A versioned loop of three blocks (`head`, `body`, `step`): the copy has all three, its
; `sdiv` in the middle block is unchecked, and its back edge goes to the copied header. The
; exit blocks are already called `head_nochk` (the name the header's copy would get) and
; `head_nochk_2` (the next one tried): the copy becomes `head_nochk_3`.
; Sum of i / 2 for i in 0..7: 0+0+1+1+2+2+3 = 9.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
entry:
    i = copy 0
    acc = copy 0
    br head
head:
    c = slt i, n
    brif c, body, head_nochk
body:
    q = sdiv i, k
    acc = add acc, q
    br step
step:
    i = add i, 1
    br head
head_nochk:
    br head_nochk_2
head_nochk_2:
    ret acc
}
