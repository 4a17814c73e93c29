; The largest index: a checked access traps index_oob; the address is never computed.
; entry: main
; args: 9223372036854775807
; expect: trap index_oob
struct Big { a: i64, b: i64, c: i64, d: i64 }

fn main(i: i64) -> i64 {
    var v: vec<Big>
    var x: i64
entry:
    v = new vec<Big>
    set v[i].d, 1
    x = get v[i].d
    ret x
}
