; passes: temp-elision
; entry: main
; expect: value 1337
; A front end's temporaries for an element read, a push and a pop: the values flow straight to
; their destinations, so the 128-byte element is copied once, not twice.
struct Big { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64 }

fn main() -> i64 {
    var v: vec<Big>
    var free: vec<i64>
    var s: Big
    var t0: Big
    var t1: Big
    var t2: i64
    var i: i64
    var x: i64
entry:
    v = new vec<Big>
    free = new vec<i64>
    setfield s.f3, 1337
    t0 = copy s
    push v, t0
    push free, 0
    t2 = pop free
    i = copy t2
    t1 = get v[i]
    s = copy t1
    x = getfield s.f3
    ret x
}
