; The smallest index: i * size wraps to 0, so an address-only check would pass; the index check
; traps.
; entry: main
; args: -9223372036854775808
; expect: trap index_oob
struct Big { a: i64, b: i64, c: i64, d: i64 }

fn main(i: i64) -> i64 {
    var v: vec<Big>
    var s: Big
    var x: i64
entry:
    v = new vec<Big>
    s = make Big(1, 2, 3, 4)
    push v, s
    x = get v[i].a
    ret x
}
