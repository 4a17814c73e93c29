; A vec local that is never assigned is the dead vec: length 0, every access traps.
; entry: main
; args: 3
; expect: trap index_oob
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var x: i64
entry:
    n = len v
    x = get v[i]
    x = add x, n
    ret x
}
