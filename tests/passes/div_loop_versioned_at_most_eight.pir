; passes: div-check-elim
; entry: main
; args: 4, 3
; expect: value 9
; Nine loops divide by the invariant `k`: the first eight (in the order the pass visits
; them) are versioned, and the ninth keeps its checks with a remark: at most eight loops
; of a function are copied (`MAX_VERSIONED_LOOPS`), a bound on code growth.
; Each loop adds i / 3 for i in 0..4 (0+0+0+1 = 1): nine loops give 9.
fn main(n: i64, k: i64) -> i64 {
    var i: i64
    var acc: i64
    var q: i64
    var c: bool
entry:
    acc = copy 0
    br pre0
pre0:
    i = copy 0
    br head0
head0:
    c = slt i, n
    brif c, body0, pre1
body0:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head0
pre1:
    i = copy 0
    br head1
head1:
    c = slt i, n
    brif c, body1, pre2
body1:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head1
pre2:
    i = copy 0
    br head2
head2:
    c = slt i, n
    brif c, body2, pre3
body2:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head2
pre3:
    i = copy 0
    br head3
head3:
    c = slt i, n
    brif c, body3, pre4
body3:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head3
pre4:
    i = copy 0
    br head4
head4:
    c = slt i, n
    brif c, body4, pre5
body4:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head4
pre5:
    i = copy 0
    br head5
head5:
    c = slt i, n
    brif c, body5, pre6
body5:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head5
pre6:
    i = copy 0
    br head6
head6:
    c = slt i, n
    brif c, body6, pre7
body6:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head6
pre7:
    i = copy 0
    br head7
head7:
    c = slt i, n
    brif c, body7, pre8
body7:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head7
pre8:
    i = copy 0
    br head8
head8:
    c = slt i, n
    brif c, body8, done
body8:
    q = sdiv i, k
    acc = add acc, q
    i = add i, 1
    br head8
done:
    ret acc
}
