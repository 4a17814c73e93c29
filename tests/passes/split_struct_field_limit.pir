; passes: struct-split
; entry: main
; args: 5
; expect: value 102
; The field bound of struct-split (MAX_FIELDS = 32) at its edge: a struct of exactly 32
; scalar fields is split into 32 field locals; one of 33 fields stays whole, with a remark.
struct S32 { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64, f16: i64, f17: i64, f18: i64, f19: i64, f20: i64, f21: i64, f22: i64, f23: i64, f24: i64, f25: i64, f26: i64, f27: i64, f28: i64, f29: i64, f30: i64, f31: i64 }
struct S33 { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64, f16: i64, f17: i64, f18: i64, f19: i64, f20: i64, f21: i64, f22: i64, f23: i64, f24: i64, f25: i64, f26: i64, f27: i64, f28: i64, f29: i64, f30: i64, f31: i64, f32: i64 }

fn main(x: i64) -> i64 {
    var s: S32
    var t: S33
    var a: i64
    var b: i64
    var r: i64
entry:
    s = make S32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
    t = make S33(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32)
    setfield s.f7, x
    setfield t.f32, x
    a = getfield s.f31
    b = getfield t.f32
    r = add a, b
    a = getfield s.f7
    r = add r, a
    a = getfield t.f0
    r = add r, a
    a = getfield s.f30
    r = add r, a
    a = getfield t.f31
    r = add r, a
    ret r
}
