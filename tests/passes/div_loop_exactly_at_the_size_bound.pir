; passes: div-check-elim
; entry: main
; args: 2, 7
; expect: value 3453
; The edge of the size bound: the loop (header and body, each block's instructions and its
; terminator) has exactly 64 instructions, as many as a copy may have, so it is versioned and
; the copy's `sdiv` is unchecked. Its near miss, one instruction more, is
; div_loop_one_past_the_size_bound.pir. Each of the 2 iterations adds 1 + 2 + ... + 58 =
; 1711 and 7 / 7 = 1: 2 * 1712 = 3424, plus 29 at the start.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
entry:
    i = copy 0
    acc = copy 29
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    q = sdiv 7, k
    acc = add acc, q
    acc = add acc, 1
    acc = add acc, 2
    acc = add acc, 3
    acc = add acc, 4
    acc = add acc, 5
    acc = add acc, 6
    acc = add acc, 7
    acc = add acc, 8
    acc = add acc, 9
    acc = add acc, 10
    acc = add acc, 11
    acc = add acc, 12
    acc = add acc, 13
    acc = add acc, 14
    acc = add acc, 15
    acc = add acc, 16
    acc = add acc, 17
    acc = add acc, 18
    acc = add acc, 19
    acc = add acc, 20
    acc = add acc, 21
    acc = add acc, 22
    acc = add acc, 23
    acc = add acc, 24
    acc = add acc, 25
    acc = add acc, 26
    acc = add acc, 27
    acc = add acc, 28
    acc = add acc, 29
    acc = add acc, 30
    acc = add acc, 31
    acc = add acc, 32
    acc = add acc, 33
    acc = add acc, 34
    acc = add acc, 35
    acc = add acc, 36
    acc = add acc, 37
    acc = add acc, 38
    acc = add acc, 39
    acc = add acc, 40
    acc = add acc, 41
    acc = add acc, 42
    acc = add acc, 43
    acc = add acc, 44
    acc = add acc, 45
    acc = add acc, 46
    acc = add acc, 47
    acc = add acc, 48
    acc = add acc, 49
    acc = add acc, 50
    acc = add acc, 51
    acc = add acc, 52
    acc = add acc, 53
    acc = add acc, 54
    acc = add acc, 55
    acc = add acc, 56
    acc = add acc, 57
    acc = add acc, 58
    i = add i, 1
    br head
done:
    ret acc
}
