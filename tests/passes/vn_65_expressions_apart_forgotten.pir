; passes: value-numbering
; entry: main
; args: 5
; expect: value 74
; Near miss of vn_64_expressions_apart_still_numbered.pir: a 65th expression makes the pass
; forget the oldest (`t0 = add a, 0`), so `y = add a, 0` stays (its remark says why), while
; the newest, `add a, 64`, is still numbered.
fn main(a: i64) -> i64 {
    var t0: i64
    var t1: i64
    var t2: i64
    var t3: i64
    var t4: i64
    var t5: i64
    var t6: i64
    var t7: i64
    var t8: i64
    var t9: i64
    var t10: i64
    var t11: i64
    var t12: i64
    var t13: i64
    var t14: i64
    var t15: i64
    var t16: i64
    var t17: i64
    var t18: i64
    var t19: i64
    var t20: i64
    var t21: i64
    var t22: i64
    var t23: i64
    var t24: i64
    var t25: i64
    var t26: i64
    var t27: i64
    var t28: i64
    var t29: i64
    var t30: i64
    var t31: i64
    var t32: i64
    var t33: i64
    var t34: i64
    var t35: i64
    var t36: i64
    var t37: i64
    var t38: i64
    var t39: i64
    var t40: i64
    var t41: i64
    var t42: i64
    var t43: i64
    var t44: i64
    var t45: i64
    var t46: i64
    var t47: i64
    var t48: i64
    var t49: i64
    var t50: i64
    var t51: i64
    var t52: i64
    var t53: i64
    var t54: i64
    var t55: i64
    var t56: i64
    var t57: i64
    var t58: i64
    var t59: i64
    var t60: i64
    var t61: i64
    var t62: i64
    var t63: i64
    var t64: i64
    var y: i64
    var z: i64
entry:
    t0 = add a, 0
    t1 = add a, 1
    t2 = add a, 2
    t3 = add a, 3
    t4 = add a, 4
    t5 = add a, 5
    t6 = add a, 6
    t7 = add a, 7
    t8 = add a, 8
    t9 = add a, 9
    t10 = add a, 10
    t11 = add a, 11
    t12 = add a, 12
    t13 = add a, 13
    t14 = add a, 14
    t15 = add a, 15
    t16 = add a, 16
    t17 = add a, 17
    t18 = add a, 18
    t19 = add a, 19
    t20 = add a, 20
    t21 = add a, 21
    t22 = add a, 22
    t23 = add a, 23
    t24 = add a, 24
    t25 = add a, 25
    t26 = add a, 26
    t27 = add a, 27
    t28 = add a, 28
    t29 = add a, 29
    t30 = add a, 30
    t31 = add a, 31
    t32 = add a, 32
    t33 = add a, 33
    t34 = add a, 34
    t35 = add a, 35
    t36 = add a, 36
    t37 = add a, 37
    t38 = add a, 38
    t39 = add a, 39
    t40 = add a, 40
    t41 = add a, 41
    t42 = add a, 42
    t43 = add a, 43
    t44 = add a, 44
    t45 = add a, 45
    t46 = add a, 46
    t47 = add a, 47
    t48 = add a, 48
    t49 = add a, 49
    t50 = add a, 50
    t51 = add a, 51
    t52 = add a, 52
    t53 = add a, 53
    t54 = add a, 54
    t55 = add a, 55
    t56 = add a, 56
    t57 = add a, 57
    t58 = add a, 58
    t59 = add a, 59
    t60 = add a, 60
    t61 = add a, 61
    t62 = add a, 62
    t63 = add a, 63
    t64 = add a, 64
    y = add a, 0
    z = add a, 64
    y = add y, z
    ret y
}
