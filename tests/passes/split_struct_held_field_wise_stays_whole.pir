; passes: struct-split, dead-local-elim
; entry: main
; args: 3
; expect: value 29
; A struct local that is only built (`make`), changed by field and stored whole (`s`) is what
; the JIT holds field by field already, one value per field stored straight into the element:
; struct-split leaves it whole, with a remark, instead of adding a copy per field and a `make`
; per store. Near misses, split: the same with 17 fields (`x`: more than the JIT holds field by
; field), and a local read whole by `copy` (`t`, and `u`, assigned by that copy).
struct S16 { a: i64, b: i64 }
struct W17 { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64, f16: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S16>
    var w: vec<W17>
    var s: S16
    var t: S16
    var u: S16
    var x: W17
    var r: i64
    var y: i64
entry:
    v = new vec<S16>
    s = make S16(i, 8)
    setfield s.b, 9
    push v, s
    t = make S16(1, 2)
    u = copy t
    push v, u
    w = new vec<W17>
    x = make W17(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    setfield x.f1, 0
    push w, x
    r = get v[0].b
    y = get v[1].a
    r = add r, y
    y = get w[0].f0
    r = add r, y
    y = get w[0].f16
    r = add r, y
    ret r
}
