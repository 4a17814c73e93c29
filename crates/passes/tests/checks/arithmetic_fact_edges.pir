; passes: bounds-check-elim
; The arithmetic rules of the fact analysis (transfer.rs, binary_facts), each with an explicit
; check of the result that the rule decides (`brif c, fail, ok`, `fail` traps). A case named
; for a rule removes its check; the near miss next to it keeps the check and traps on the
; call that breaks the rule's condition (an overflow, a negative operand, a shift by 0).
; Written from the surviving mutants of the transfer.rs mutation run (docs/testing.md).
; lacks: add_locals_lower | brif c,
; lacks: add_locals_upper | brif c,
; lacks: add_locals_swapped | brif c,
; contains: add_locals_may_wrap |     brif c,
; lacks: add_nonpositive_locals | brif c,
; contains: add_negative_may_wrap |     brif c,
; lacks: add_const_upper | brif c,
; contains: add_const_may_wrap |     brif c,
; lacks: sub_const_lower | brif c,
; contains: sub_const_may_wrap |     brif c,
; lacks: sub_locals_range | brif c,
; lacks: sub_locals_upper | brif c,
; contains: sub_locals_may_wrap |     brif c,
; lacks: sub_ordered_locals | brif c,
; contains: sub_weakly_ordered_locals |     brif c,
; lacks: sub_ordered_upper | brif c,
; lacks: mul_const | brif c,
; lacks: mul_const_first | brif c,
; lacks: mul_const_lower | brif c,
; contains: mul_const_unbounded |     brif c,
; lacks: shl_const | brif c,
; lacks: shl_const_lower | brif c,
; lacks: lshr_const | brif c,
; contains: lshr_by_64 |     brif c,
; contains: lshr_by_local |     brif c,
; lacks: ashr_nonneg | brif c,
; contains: ashr_any |     brif c,
; lacks: udiv_nonneg | brif c,
; contains: udiv_any |     brif c,
; lacks: udiv_upper | brif c,
; lacks: srem_nonneg | brif c,
; lacks: srem_upper | brif c,
; contains: srem_any |     brif c,
; lacks: sdiv_nonneg | brif c,
; contains: sdiv_negative_divisor |     brif c,
; lacks: urem_const | brif c,
; lacks: urem_local | brif c,
; lacks: urem_nonneg_x | brif c,
; contains: urem_any_divisor |     brif c,
; lacks: and_local_mask | brif c,
; contains: and_any |     brif c,
; lacks: lshr_by_60 | brif c,
; contains: lshr_upper_is_large |     brif c,
; contains: lshr_of_constant |     brif c,
; contains: lshr_of_negative |     brif c,
; contains: ashr_of_constant |     brif c,
; lacks: add_const_first | brif c,
; lacks: add_const_large_bound | brif c,
; contains: add_const_near_max |     brif c,
; contains: sub_const_near_min |     brif c,
; lacks: sub_const_large_bound | brif c,
; lacks: add_locals_large | brif c,
; contains: add_locals_near_max |     brif c,
; lacks: add_negative_large | brif c,
; contains: add_negative_near_min |     brif c,
; lacks: add_upper_only | brif c,
; lacks: sub_nonneg_unbounded | brif c,
; contains: sub_near_min |     brif c,
; contains: sub_near_max |     brif c,
; lacks: sub_const_first | brif c,
; contains: sub_const_first_negative |     brif c,
; contains: sub_const_first_upper |     brif c,
; contains: shl_by_negative |     brif c,
; contains: mul_negative_const |     brif c,
; contains: mul_by_zero |     brif c,
; contains: mul_const_large |     brif c,
; lacks: lshr_nonneg_bounded | brif c,
; lacks: ashr_below_local | brif c,
; lacks: lshr_below_local | brif c,
; lacks: udiv_below_local | brif c,
; lacks: srem_below_local | brif c,
; lacks: sdiv_below_local | brif c,
; lacks: urem_below_local | brif c,
; lacks: urem_below_divisor | brif c,
; lacks: srem_below_divisor | brif c,
; contains: urem_const_near |     brif c,
; contains: urem_local_near |     brif c,
; contains: urem_const_first |     brif c,
; contains: udiv_const_first |     brif c,
; contains: srem_const_first |     brif c,
; contains: srem_signed_divisor |     brif c,
; contains: sdiv_const_first |     brif c,
; lacks: ult_guard | brif c,
; contains: ult_guard_negative_bound |     brif c,
; lacks: ule_guard | brif c,
; contains: ule_guard_negative_bound |     brif c,
; lacks: ugt_guard | brif c,
; lacks: uge_guard | brif c,
; lacks: ne_above_known_bound | brif c,
; contains: ne_without_bound |     brif c,
; lacks: add_nonpositive_to_nonnegative | brif c,
; stat: bounds-check-elim explicit_checks_removed = 50
; stat: bounds-check-elim explicit_checks_kept = 41
; runs: add_locals_lower(0,1) add_locals_lower(100,3) add_locals_upper(100,3)
; runs: add_locals_upper(0,0) add_locals_swapped(5,2) add_locals_may_wrap(5,2)
; runs: add_locals_may_wrap(i64::MAX,1) add_nonpositive_locals(-100,-3)
; runs: add_nonpositive_locals(0,0) add_negative_may_wrap(-5,-2)
; runs: add_negative_may_wrap(i64::MIN,-1) add_const_upper(100) add_const_upper(0)
; runs: add_const_may_wrap(7) add_const_may_wrap(i64::MAX) sub_const_lower(-100)
; runs: sub_const_lower(0) sub_const_may_wrap(-7) sub_const_may_wrap(i64::MIN)
; runs: sub_locals_range(0,3) sub_locals_range(7,0) sub_locals_upper(7,0) sub_locals_upper(0,3)
; runs: sub_locals_may_wrap(3,-2) sub_locals_may_wrap(i64::MAX,-1) sub_ordered_locals(5,4)
; runs: sub_ordered_locals(100,0) sub_weakly_ordered_locals(5,4) sub_weakly_ordered_locals(6,6)
; runs: sub_ordered_upper(4,5) sub_ordered_upper(0,100) mul_const(10) mul_const(0)
; runs: mul_const_first(10) mul_const_first(1) mul_const_lower(2) mul_const_lower(10)
; runs: mul_const_unbounded(10) mul_const_unbounded(4611686018427387904) shl_const(10)
; runs: shl_const(3) shl_const_lower(1) shl_const_lower(10) lshr_const(-1) lshr_const(7)
; runs: lshr_by_64(7) lshr_by_64(-1) lshr_by_local(-1,1) lshr_by_local(-1,0) ashr_nonneg(9)
; runs: ashr_nonneg(0) ashr_any(9) ashr_any(-4) udiv_nonneg(9,2) udiv_nonneg(0,5) udiv_any(9,2)
; runs: udiv_any(-4,1) udiv_upper(50,1) udiv_upper(7,3) srem_nonneg(13) srem_nonneg(0)
; runs: srem_upper(15) srem_upper(3) srem_any(13) srem_any(-5) sdiv_nonneg(9,2) sdiv_nonneg(0,3)
; runs: sdiv_negative_divisor(0,-2) sdiv_negative_divisor(6,-2) urem_const(-1) urem_const(13)
; runs: urem_local(-1,8) urem_local(13,5) urem_nonneg_x(5,9) urem_nonneg_x(3,2)
; runs: urem_any_divisor(5,3) urem_any_divisor(-2,-1) and_local_mask(-1,7) and_local_mask(12,5)
; runs: and_any(5,3) and_any(-1,-1) lshr_by_60(-1) lshr_by_60(7) lshr_upper_is_large(7)
; runs: lshr_upper_is_large(-1) lshr_of_constant(0) lshr_of_negative(-4) ashr_of_constant(0)
; runs: add_const_first(100) add_const_first(0) add_const_large_bound(4611686018427387904)
; runs: add_const_large_bound(0) add_const_near_max(7) add_const_near_max(9223372036854775805)
; runs: sub_const_near_min(-7) sub_const_near_min(-9223372036854775806)
; runs: sub_const_large_bound(-4611686018427387904) sub_const_large_bound(0)
; runs: add_locals_large(4611686018427387904,3) add_locals_large(0,1) add_locals_near_max(5,2)
; runs: add_locals_near_max(9223372036854775806,3) add_negative_large(-4611686018427387904,-3)
; runs: add_negative_large(0,-1) add_negative_near_min(-5,-2)
; runs: add_negative_near_min(-9223372036854775807,-3) add_upper_only(100,3)
; runs: add_upper_only(-50,0) sub_nonneg_unbounded(5,4)
; runs: sub_nonneg_unbounded(9223372036854775807,0) sub_near_min(-5,2)
; runs: sub_near_min(-9223372036854775807,3) sub_near_max(5,-2)
; runs: sub_near_max(9223372036854775806,-3) sub_const_first(3) sub_const_first(0)
; runs: sub_const_first_negative(-20) sub_const_first_negative(0) sub_const_first_upper(20)
; runs: sub_const_first_upper(0) shl_by_negative(0) shl_by_negative(1) mul_negative_const(0)
; runs: mul_negative_const(1) mul_by_zero(0) mul_by_zero(5) mul_const_large(7)
; runs: mul_const_large(4611686018427387904) lshr_nonneg_bounded(100) lshr_nonneg_bounded(3)
; runs: ashr_below_local(9,9) ashr_below_local(0,5) lshr_below_local(9,9) lshr_below_local(0,5)
; runs: udiv_below_local(9,9,2) udiv_below_local(0,5,1) srem_below_local(9,9)
; runs: srem_below_local(0,5) sdiv_below_local(9,9,2) sdiv_below_local(0,5,1)
; runs: urem_below_local(9,9,4) urem_below_local(0,5,3) urem_below_divisor(-1,7)
; runs: urem_below_divisor(20,3) srem_below_divisor(20,7) srem_below_divisor(3,5)
; runs: urem_const_near(2) urem_const_near(5) urem_local_near(2,8) urem_local_near(5,8)
; runs: urem_const_first(5) urem_const_first(3) udiv_const_first(41) udiv_const_first(3)
; runs: srem_const_first(5) srem_const_first(3) srem_signed_divisor(2,7)
; runs: srem_signed_divisor(5,-3) sdiv_const_first(41) sdiv_const_first(3) ult_guard(3,5)
; runs: ult_guard(0,1) ult_guard_negative_bound(3,5) ult_guard_negative_bound(5,-1)
; runs: ule_guard(5,5) ule_guard(0,1) ule_guard_negative_bound(3,5)
; runs: ule_guard_negative_bound(5,-1) ugt_guard(3,5) ugt_guard(0,1) uge_guard(5,5)
; runs: uge_guard(0,1) ne_above_known_bound(6) ne_above_known_bound(100) ne_without_bound(7)
; runs: ne_without_bound(3) add_nonpositive_to_nonnegative(0,9223372036854775807)
; runs: add_nonpositive_to_nonnegative(-9223372036854775807,0)
; runs: add_nonpositive_to_nonnegative(-3,4)
; traps: add_locals_may_wrap(i64::MAX,1)
; traps: add_negative_may_wrap(i64::MIN,-1)
; traps: add_const_may_wrap(i64::MAX)
; traps: sub_const_may_wrap(i64::MIN)
; traps: sub_locals_may_wrap(i64::MAX,-1)
; traps: sub_weakly_ordered_locals(6,6)
; traps: mul_const_unbounded(4611686018427387904)
; traps: lshr_by_64(-1)
; traps: lshr_by_local(-1,0)
; traps: ashr_any(-4)
; traps: udiv_any(-4,1)
; traps: srem_any(-5)
; traps: sdiv_negative_divisor(6,-2)
; traps: urem_any_divisor(-2,-1)
; traps: and_any(-1,-1)
; traps: lshr_upper_is_large(-1)
; traps: lshr_of_constant(0)
; traps: lshr_of_negative(-4)
; traps: ashr_of_constant(0)
; traps: add_const_near_max(9223372036854775805)
; traps: sub_const_near_min(-9223372036854775806)
; traps: add_locals_near_max(9223372036854775806,3)
; traps: add_negative_near_min(-9223372036854775807,-3)
; traps: sub_near_min(-9223372036854775807,3)
; traps: sub_near_max(9223372036854775806,-3)
; traps: sub_const_first_negative(0)
; traps: sub_const_first_upper(0)
; traps: shl_by_negative(1)
; traps: mul_negative_const(1)
; traps: mul_by_zero(5)
; traps: mul_const_large(4611686018427387904)
; traps: urem_const_near(5)
; traps: urem_local_near(5,8)
; traps: urem_const_first(3)
; traps: udiv_const_first(3)
; traps: srem_const_first(3)
; traps: srem_signed_divisor(5,-3)
; traps: sdiv_const_first(3)
; traps: ult_guard_negative_bound(5,-1)
; traps: ule_guard_negative_bound(5,-1)
; traps: ne_without_bound(3)
; returns: add_locals_lower(0,1)
; returns: add_locals_lower(100,3)
; returns: add_locals_upper(100,3)
; returns: add_locals_upper(0,0)
; returns: add_locals_swapped(5,2)
; returns: add_locals_may_wrap(5,2)
; returns: add_nonpositive_locals(-100,-3)
; returns: add_nonpositive_locals(0,0)
; returns: add_negative_may_wrap(-5,-2)
; returns: add_const_upper(100)
; returns: add_const_upper(0)
; returns: add_const_may_wrap(7)
; returns: sub_const_lower(-100)
; returns: sub_const_lower(0)
; returns: sub_const_may_wrap(-7)
; returns: sub_locals_range(0,3)
; returns: sub_locals_range(7,0)
; returns: sub_locals_upper(7,0)
; returns: sub_locals_upper(0,3)
; returns: sub_locals_may_wrap(3,-2)
; returns: sub_ordered_locals(5,4)
; returns: sub_ordered_locals(100,0)
; returns: sub_weakly_ordered_locals(5,4)
; returns: sub_ordered_upper(4,5)
; returns: sub_ordered_upper(0,100)
; returns: mul_const(10)
; returns: mul_const(0)
; returns: mul_const_first(10)
; returns: mul_const_first(1)
; returns: mul_const_lower(2)
; returns: mul_const_lower(10)
; returns: mul_const_unbounded(10)
; returns: shl_const(10)
; returns: shl_const(3)
; returns: shl_const_lower(1)
; returns: shl_const_lower(10)
; returns: lshr_const(-1)
; returns: lshr_const(7)
; returns: lshr_by_64(7)
; returns: lshr_by_local(-1,1)
; returns: ashr_nonneg(9)
; returns: ashr_nonneg(0)
; returns: ashr_any(9)
; returns: udiv_nonneg(9,2)
; returns: udiv_nonneg(0,5)
; returns: udiv_any(9,2)
; returns: udiv_upper(50,1)
; returns: udiv_upper(7,3)
; returns: srem_nonneg(13)
; returns: srem_nonneg(0)
; returns: srem_upper(15)
; returns: srem_upper(3)
; returns: srem_any(13)
; returns: sdiv_nonneg(9,2)
; returns: sdiv_nonneg(0,3)
; returns: sdiv_negative_divisor(0,-2)
; returns: urem_const(-1)
; returns: urem_const(13)
; returns: urem_local(-1,8)
; returns: urem_local(13,5)
; returns: urem_nonneg_x(5,9)
; returns: urem_nonneg_x(3,2)
; returns: urem_any_divisor(5,3)
; returns: and_local_mask(-1,7)
; returns: and_local_mask(12,5)
; returns: and_any(5,3)
; returns: lshr_by_60(-1)
; returns: lshr_by_60(7)
; returns: lshr_upper_is_large(7)
; returns: add_const_first(100)
; returns: add_const_first(0)
; returns: add_const_large_bound(4611686018427387904)
; returns: add_const_large_bound(0)
; returns: add_const_near_max(7)
; returns: sub_const_near_min(-7)
; returns: sub_const_large_bound(-4611686018427387904)
; returns: sub_const_large_bound(0)
; returns: add_locals_large(4611686018427387904,3)
; returns: add_locals_large(0,1)
; returns: add_locals_near_max(5,2)
; returns: add_negative_large(-4611686018427387904,-3)
; returns: add_negative_large(0,-1)
; returns: add_negative_near_min(-5,-2)
; returns: add_upper_only(100,3)
; returns: add_upper_only(-50,0)
; returns: sub_nonneg_unbounded(5,4)
; returns: sub_nonneg_unbounded(9223372036854775807,0)
; returns: sub_near_min(-5,2)
; returns: sub_near_max(5,-2)
; returns: sub_const_first(3)
; returns: sub_const_first(0)
; returns: sub_const_first_negative(-20)
; returns: sub_const_first_upper(20)
; returns: shl_by_negative(0)
; returns: mul_negative_const(0)
; returns: mul_by_zero(0)
; returns: mul_const_large(7)
; returns: lshr_nonneg_bounded(100)
; returns: lshr_nonneg_bounded(3)
; returns: ashr_below_local(9,9)
; returns: ashr_below_local(0,5)
; returns: lshr_below_local(9,9)
; returns: lshr_below_local(0,5)
; returns: udiv_below_local(9,9,2)
; returns: udiv_below_local(0,5,1)
; returns: srem_below_local(9,9)
; returns: srem_below_local(0,5)
; returns: sdiv_below_local(9,9,2)
; returns: sdiv_below_local(0,5,1)
; returns: urem_below_local(9,9,4)
; returns: urem_below_local(0,5,3)
; returns: urem_below_divisor(-1,7)
; returns: urem_below_divisor(20,3)
; returns: srem_below_divisor(20,7)
; returns: srem_below_divisor(3,5)
; returns: urem_const_near(2)
; returns: urem_local_near(2,8)
; returns: urem_const_first(5)
; returns: udiv_const_first(41)
; returns: srem_const_first(5)
; returns: srem_signed_divisor(2,7)
; returns: sdiv_const_first(41)
; returns: ult_guard(3,5)
; returns: ult_guard(0,1)
; returns: ult_guard_negative_bound(3,5)
; returns: ule_guard(5,5)
; returns: ule_guard(0,1)
; returns: ule_guard_negative_bound(3,5)
; returns: ugt_guard(3,5)
; returns: ugt_guard(0,1)
; returns: uge_guard(5,5)
; returns: uge_guard(0,1)
; returns: ne_above_known_bound(6)
; returns: ne_above_known_bound(100)
; returns: ne_without_bound(7)
; returns: add_nonpositive_to_nonnegative(0,9223372036854775807)
; returns: add_nonpositive_to_nonnegative(-9223372036854775807,0)
; returns: add_nonpositive_to_nonnegative(-3,4)

; p in 0..=100, q in 1..=3: d = p + q >= 1
fn add_locals_lower(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 100
    brif g, g2, out
g2:
    g = sge q, 1
    brif g, g3, out
g3:
    g = sle q, 3
    brif g, g4, out
g4:
    d = add p, q
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; d <= 103
fn add_locals_upper(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 100
    brif g, g2, out
g2:
    g = sge q, 0
    brif g, g3, out
g3:
    g = sle q, 3
    brif g, g4, out
g4:
    d = add p, q
    c = sgt d, 103
    brif c, fail, ok
fail:
    trap "sgt d, 103"
ok:
    ret d
out:
    ret -1
}

; the same with the operands swapped
fn add_locals_swapped(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 100
    brif g, g2, out
g2:
    g = sge q, 1
    brif g, g3, out
g3:
    g = sle q, 3
    brif g, g4, out
g4:
    d = add q, p
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; near miss: p unbounded above, so p + q may wrap to i64::MIN
fn add_locals_may_wrap(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sge q, 1
    brif g, g2, out
g2:
    g = sle q, 3
    brif g, g3, out
g3:
    d = add p, q
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; p in -100..=0, q in -3..=0: d >= -103
fn add_nonpositive_locals(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle p, 0
    brif g, g1, out
g1:
    g = sge p, -100
    brif g, g2, out
g2:
    g = sle q, 0
    brif g, g3, out
g3:
    g = sge q, -3
    brif g, g4, out
g4:
    d = add p, q
    c = slt d, -103
    brif c, fail, ok
fail:
    trap "slt d, -103"
ok:
    ret d
out:
    ret -1
}

; near miss: p unbounded below, so p + q may wrap to i64::MAX
fn add_negative_may_wrap(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle p, 0
    brif g, g1, out
g1:
    g = sge q, -3
    brif g, g2, out
g2:
    g = sle q, -1
    brif g, g3, out
g3:
    d = add p, q
    c = sgt d, -1
    brif c, fail, ok
fail:
    trap "sgt d, -1"
ok:
    ret d
out:
    ret -1
}

; d = p + 5 <= 105
fn add_const_upper(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 100
    brif g, g2, out
g2:
    d = add p, 5
    c = sgt d, 105
    brif c, fail, ok
fail:
    trap "sgt d, 105"
ok:
    ret d
out:
    ret -1
}

; near miss: p + 5 may wrap
fn add_const_may_wrap(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    d = add p, 5
    c = slt d, 5
    brif c, fail, ok
fail:
    trap "slt d, 5"
ok:
    ret d
out:
    ret -1
}

; d = p - 5 >= -105
fn sub_const_lower(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, -100
    brif g, g1, out
g1:
    g = sle p, 0
    brif g, g2, out
g2:
    d = sub p, 5
    c = slt d, -105
    brif c, fail, ok
fail:
    trap "slt d, -105"
ok:
    ret d
out:
    ret -1
}

; near miss: p - 5 may wrap to a large positive value
fn sub_const_may_wrap(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle p, 0
    brif g, g1, out
g1:
    d = sub p, 5
    c = sgt d, -5
    brif c, fail, ok
fail:
    trap "sgt d, -5"
ok:
    ret d
out:
    ret -1
}

; x in 0..=7, y in 0..=3: d >= -3
fn sub_locals_range(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 7
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 3
    brif g, g4, out
g4:
    d = sub x, y
    c = slt d, -3
    brif c, fail, ok
fail:
    trap "slt d, -3"
ok:
    ret d
out:
    ret -1
}

; d <= 7
fn sub_locals_upper(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 7
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 3
    brif g, g4, out
g4:
    d = sub x, y
    c = sgt d, 7
    brif c, fail, ok
fail:
    trap "sgt d, 7"
ok:
    ret d
out:
    ret -1
}

; near miss: x - y may wrap (x large, y negative)
fn sub_locals_may_wrap(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle y, 0
    brif g, g2, out
g2:
    d = sub x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; y < x: d = x - y >= 1
fn sub_ordered_locals(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 100
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 100
    brif g, g4, out
g4:
    g = slt y, x
    brif g, g5, out
g5:
    d = sub x, y
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; near miss: y <= x only: d may be 0
fn sub_weakly_ordered_locals(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 100
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 100
    brif g, g4, out
g4:
    g = sle y, x
    brif g, g5, out
g5:
    d = sub x, y
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; x < y: d = x - y <= -1
fn sub_ordered_upper(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 100
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 100
    brif g, g4, out
g4:
    g = slt x, y
    brif g, g5, out
g5:
    d = sub x, y
    c = sgt d, -1
    brif c, fail, ok
fail:
    trap "sgt d, -1"
ok:
    ret d
out:
    ret -1
}

; p in 0..=10: d = 3p <= 30
fn mul_const(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = mul p, 3
    c = sgt d, 30
    brif c, fail, ok
fail:
    trap "sgt d, 30"
ok:
    ret d
out:
    ret -1
}

; the constant first
fn mul_const_first(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = mul 3, p
    c = sgt d, 30
    brif c, fail, ok
fail:
    trap "sgt d, 30"
ok:
    ret d
out:
    ret -1
}

; p >= 2: d >= 6
fn mul_const_lower(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 2
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = mul p, 3
    c = slt d, 6
    brif c, fail, ok
fail:
    trap "slt d, 6"
ok:
    ret d
out:
    ret -1
}

; near miss: no upper bound, 3p may wrap
fn mul_const_unbounded(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    d = mul p, 3
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; d = p << 2 <= 40
fn shl_const(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = shl p, 2
    c = sgt d, 40
    brif c, fail, ok
fail:
    trap "sgt d, 40"
ok:
    ret d
out:
    ret -1
}

; p >= 1: d >= 4
fn shl_const_lower(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 1
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = shl p, 2
    c = slt d, 4
    brif c, fail, ok
fail:
    trap "slt d, 4"
ok:
    ret d
out:
    ret -1
}

; a logical shift by 1 clears the sign bit
fn lshr_const(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr p, 1
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; near miss: a shift by 64 is a shift by 0
fn lshr_by_64(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr p, 64
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; near miss: the amount is a local, maybe 0
fn lshr_by_local(p: i64, s: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr p, s
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; x >= 0: d = x >> 1 >= 0
fn ashr_nonneg(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    d = ashr x, 1
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: x may be negative
fn ashr_any(x: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = ashr x, 1
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; x >= 0: 0 <= d <= x
fn udiv_nonneg(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sge y, 1
    brif g, g2, out
g2:
    d = udiv x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: x may be negative (udiv by 1 keeps it)
fn udiv_any(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = udiv x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; d <= x <= 50
fn udiv_upper(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 50
    brif g, g2, out
g2:
    g = sge y, 1
    brif g, g3, out
g3:
    d = udiv x, y
    c = sgt d, 50
    brif c, fail, ok
fail:
    trap "sgt d, 50"
ok:
    ret d
out:
    ret -1
}

; x >= 0: 0 <= d
fn srem_nonneg(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    d = srem x, 8
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; x >= 0: d <= 7
fn srem_upper(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    d = srem x, 8
    c = sgt d, 7
    brif c, fail, ok
fail:
    trap "sgt d, 7"
ok:
    ret d
out:
    ret -1
}

; near miss: x may be negative
fn srem_any(x: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = srem x, 8
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; x >= 0, y >= 1: d >= 0
fn sdiv_nonneg(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sge y, 1
    brif g, g2, out
g2:
    d = sdiv x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: y may be negative
fn sdiv_negative_divisor(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle y, -1
    brif g, g2, out
g2:
    d = sdiv x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; d <u 8 and 8 >= 0: 0 <= d <= 7
fn urem_const(x: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = urem x, 8
    c = sgt d, 7
    brif c, fail, ok
fail:
    trap "sgt d, 7"
ok:
    ret d
}

; y in 1..=8: d <= y - 1 <= 7
fn urem_local(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    g = sle y, 8
    brif g, g2, out
g2:
    d = urem x, y
    c = sgt d, 7
    brif c, fail, ok
fail:
    trap "sgt d, 7"
ok:
    ret d
out:
    ret -1
}

; x in 0..=5: d <= x
fn urem_nonneg_x(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 5
    brif g, g2, out
g2:
    d = urem x, y
    c = sgt d, 5
    brif c, fail, ok
fail:
    trap "sgt d, 5"
ok:
    ret d
out:
    ret -1
}

; near miss: y may be negative (unsigned huge): d may be negative
fn urem_any_divisor(x: i64, y: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = urem x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; y in 0..=7: 0 <= d = x & y <= y
fn and_local_mask(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = sle y, 7
    brif g, g2, out
g2:
    d = and x, y
    c = sgt d, 7
    brif c, fail, ok
fail:
    trap "sgt d, 7"
ok:
    ret d
out:
    ret -1
}

; near miss: neither operand is known non-negative
fn and_any(x: i64, y: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = and x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
}

; d <= i64::MAX >> 60 = 7
fn lshr_by_60(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr p, 60
    c = sgt d, 15
    brif c, fail, ok
fail:
    trap "sgt d, 15"
ok:
    ret d
}

; near miss: a shift by 1 leaves values up to i64::MAX >> 1
fn lshr_upper_is_large(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr p, 1
    c = sgt d, 100
    brif c, fail, ok
fail:
    trap "sgt d, 100"
ok:
    ret d
}

; near miss: a constant operand bounds nothing as a term (d = 20)
fn lshr_of_constant(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = lshr 40, 1
    c = sgt d, 10
    brif c, fail, ok
fail:
    trap "sgt d, 10"
ok:
    ret d
}

; near miss: d <= x only for x >= 0
fn lshr_of_negative(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle x, -1
    brif g, g1, out
g1:
    d = lshr x, 1
    c = sgt d, x
    brif c, fail, ok
fail:
    trap "sgt d, x"
ok:
    ret d
out:
    ret -1
}

; near miss: the same for an arithmetic shift
fn ashr_of_constant(p: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = ashr 40, 1
    c = sgt d, 10
    brif c, fail, ok
fail:
    trap "sgt d, 10"
ok:
    ret d
}

; the constant first: d = 5 + p <= 105
fn add_const_first(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 100
    brif g, g2, out
g2:
    d = add 5, p
    c = sgt d, 105
    brif c, fail, ok
fail:
    trap "sgt d, 105"
ok:
    ret d
out:
    ret -1
}

; p <= 2^62 leaves room for + 5: d >= 5
fn add_const_large_bound(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 4611686018427387904
    brif g, g2, out
g2:
    d = add p, 5
    c = slt d, 5
    brif c, fail, ok
fail:
    trap "slt d, 5"
ok:
    ret d
out:
    ret -1
}

; near miss: p <= i64::MAX - 2 leaves no room for + 5
fn add_const_near_max(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 9223372036854775805
    brif g, g2, out
g2:
    d = add p, 5
    c = slt d, 5
    brif c, fail, ok
fail:
    trap "slt d, 5"
ok:
    ret d
out:
    ret -1
}

; near miss: p >= i64::MIN + 2 leaves no room for - 5
fn sub_const_near_min(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, -9223372036854775806
    brif g, g1, out
g1:
    g = sle p, 0
    brif g, g2, out
g2:
    d = sub p, 5
    c = sgt d, -5
    brif c, fail, ok
fail:
    trap "sgt d, -5"
ok:
    ret d
out:
    ret -1
}

; p >= -2^62 leaves room for - 5: d <= -5
fn sub_const_large_bound(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, -4611686018427387904
    brif g, g1, out
g1:
    g = sle p, 0
    brif g, g2, out
g2:
    d = sub p, 5
    c = sgt d, -5
    brif c, fail, ok
fail:
    trap "sgt d, -5"
ok:
    ret d
out:
    ret -1
}

; p <= 2^62, q <= 3: the sum fits, d >= 1
fn add_locals_large(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 4611686018427387904
    brif g, g2, out
g2:
    g = sge q, 1
    brif g, g3, out
g3:
    g = sle q, 3
    brif g, g4, out
g4:
    d = add p, q
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; near miss: p <= i64::MAX - 1 and q <= 3: the sum may wrap
fn add_locals_near_max(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 9223372036854775806
    brif g, g2, out
g2:
    g = sge q, 1
    brif g, g3, out
g3:
    g = sle q, 3
    brif g, g4, out
g4:
    d = add p, q
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; p >= -2^62, q >= -3: the sum fits, d <= -1
fn add_negative_large(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, -4611686018427387904
    brif g, g1, out
g1:
    g = sle p, 0
    brif g, g2, out
g2:
    g = sge q, -3
    brif g, g3, out
g3:
    g = sle q, -1
    brif g, g4, out
g4:
    d = add p, q
    c = sgt d, -1
    brif c, fail, ok
fail:
    trap "sgt d, -1"
ok:
    ret d
out:
    ret -1
}

; near miss: p >= i64::MIN + 1 and q >= -3: the sum may wrap
fn add_negative_near_min(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, -9223372036854775807
    brif g, g1, out
g1:
    g = sle p, 0
    brif g, g2, out
g2:
    g = sge q, -3
    brif g, g3, out
g3:
    g = sle q, -1
    brif g, g4, out
g4:
    d = add p, q
    c = sgt d, -1
    brif c, fail, ok
fail:
    trap "sgt d, -1"
ok:
    ret d
out:
    ret -1
}

; p <= 100 (no lower bound), q in 0..=3: no wrap either way, d <= 103
fn add_upper_only(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle p, 100
    brif g, g1, out
g1:
    g = sge q, 0
    brif g, g2, out
g2:
    g = sle q, 3
    brif g, g3, out
g3:
    d = add p, q
    c = sgt d, 103
    brif c, fail, ok
fail:
    trap "sgt d, 103"
ok:
    ret d
out:
    ret -1
}

; x, y >= 0 (no upper bounds) cannot wrap; y < x: d >= 1
fn sub_nonneg_unbounded(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sge y, 0
    brif g, g2, out
g2:
    g = slt y, x
    brif g, g3, out
g3:
    d = sub x, y
    c = slt d, 1
    brif c, fail, ok
fail:
    trap "slt d, 1"
ok:
    ret d
out:
    ret -1
}

; near miss: x >= i64::MIN + 1 and y <= 3: x - y may wrap
fn sub_near_min(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, -9223372036854775807
    brif g, g1, out
g1:
    g = sle x, 0
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 3
    brif g, g4, out
g4:
    d = sub x, y
    c = sgt d, 0
    brif c, fail, ok
fail:
    trap "sgt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: x <= i64::MAX - 1 and y >= -3: x - y may wrap
fn sub_near_max(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 9223372036854775806
    brif g, g2, out
g2:
    g = sge y, -3
    brif g, g3, out
g3:
    g = sle y, 0
    brif g, g4, out
g4:
    d = sub x, y
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; d = 10 - y with y <= 3: d >= 7
fn sub_const_first(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = sle y, 3
    brif g, g2, out
g2:
    d = sub 10, y
    c = slt d, 7
    brif c, fail, ok
fail:
    trap "slt d, 7"
ok:
    ret d
out:
    ret -1
}

; near miss: d = -5 - y with y in -100..=0 is only >= -5
fn sub_const_first_negative(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, -100
    brif g, g1, out
g1:
    g = sle y, 0
    brif g, g2, out
g2:
    d = sub -5, y
    c = slt d, 5
    brif c, fail, ok
fail:
    trap "slt d, 5"
ok:
    ret d
out:
    ret -1
}

; near miss: d = 10 - y with y in 0..=100 is only <= 10
fn sub_const_first_upper(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = sle y, 100
    brif g, g2, out
g2:
    d = sub 10, y
    c = sgt d, 5
    brif c, fail, ok
fail:
    trap "sgt d, 5"
ok:
    ret d
out:
    ret -1
}

; near miss: a shift by -1 is a shift by 63 (p = 1 gives i64::MIN)
fn shl_by_negative(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = shl p, -1
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: a negative factor gives no facts (d in -30..=0)
fn mul_negative_const(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = mul p, -3
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: a zero factor gives no facts (in particular not p <= d)
fn mul_by_zero(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 10
    brif g, g2, out
g2:
    d = mul p, 0
    c = sgt p, d
    brif c, fail, ok
fail:
    trap "sgt p, d"
ok:
    ret d
out:
    ret -1
}

; near miss: p <= 2^62 and 3p may wrap
fn mul_const_large(p: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge p, 0
    brif g, g1, out
g1:
    g = sle p, 4611686018427387904
    brif g, g2, out
g2:
    d = mul p, 3
    c = slt d, 0
    brif c, fail, ok
fail:
    trap "slt d, 0"
ok:
    ret d
out:
    ret -1
}

; x in 0..=100: d = x >> 1 <= x <= 100
fn lshr_nonneg_bounded(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 100
    brif g, g2, out
g2:
    d = lshr x, 1
    c = sgt d, 100
    brif c, fail, ok
fail:
    trap "sgt d, 100"
ok:
    ret d
out:
    ret -1
}

; x in 0..=n: d = x >> 1 <= x <= n (a relation, not a constant bound)
fn ashr_below_local(x: i64, n: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    d = ashr x, 1
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; the same for a logical shift
fn lshr_below_local(x: i64, n: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    d = lshr x, 2
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; x in 0..=n, y >= 1: d = x / y <= x <= n
fn udiv_below_local(x: i64, n: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    g = sge y, 1
    brif g, g3, out
g3:
    d = udiv x, y
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; x in 0..=n: d = x % 1000 <= x <= n
fn srem_below_local(x: i64, n: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    d = srem x, 1000
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; x in 0..=n, y >= 1: d = x / y <= x <= n
fn sdiv_below_local(x: i64, n: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    g = sge y, 1
    brif g, g3, out
g3:
    d = sdiv x, y
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; x in 0..=n: d = x %u y <= x <= n
fn urem_below_local(x: i64, n: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, n
    brif g, g2, out
g2:
    d = urem x, y
    c = sgt d, n
    brif c, fail, ok
fail:
    trap "sgt d, n"
ok:
    ret d
out:
    ret -1
}

; y >= 1: d = x %u y < y (a relation to the divisor)
fn urem_below_divisor(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = urem x, y
    c = sge d, y
    brif c, fail, ok
fail:
    trap "sge d, y"
ok:
    ret d
out:
    ret -1
}

; x >= 0, y >= 1: d = x % y < y
fn srem_below_divisor(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sge y, 1
    brif g, g2, out
g2:
    d = srem x, y
    c = sge d, y
    brif c, fail, ok
fail:
    trap "sge d, y"
ok:
    ret d
out:
    ret -1
}

; near miss: d = x %u 8 is in 0..=7, not 0..=3
fn urem_const_near(x: i64) -> i64 {
    var d: i64
    var c: bool
entry:
    d = urem x, 8
    c = sgt d, 3
    brif c, fail, ok
fail:
    trap "sgt d, 3"
ok:
    ret d
}

; near miss: y <= 8 bounds d by 7, not 3
fn urem_local_near(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    g = sle y, 8
    brif g, g2, out
g2:
    d = urem x, y
    c = sgt d, 3
    brif c, fail, ok
fail:
    trap "sgt d, 3"
ok:
    ret d
out:
    ret -1
}

; near miss: d = 5 %u y is only bounded by 5 and y - 1
fn urem_const_first(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = urem 5, y
    c = sgt d, 0
    brif c, fail, ok
fail:
    trap "sgt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: d = 40 / y is bounded by 40, not by 0
fn udiv_const_first(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = udiv 40, y
    c = sgt d, 0
    brif c, fail, ok
fail:
    trap "sgt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: d = 40 % y is bounded by 40 and y - 1, not by 0
fn srem_const_first(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = srem 40, y
    c = sgt d, 0
    brif c, fail, ok
fail:
    trap "sgt d, 0"
ok:
    ret d
out:
    ret -1
}

; near miss: y may be negative, so d < y does not follow
fn srem_signed_divisor(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = sge y, -10
    brif g, g2, out
g2:
    d = srem x, y
    c = sge d, y
    brif c, fail, ok
fail:
    trap "sge d, y"
ok:
    ret d
out:
    ret -1
}

; near miss: d = 40 / y is bounded by 40, not by 0
fn sdiv_const_first(y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 1
    brif g, g1, out
g1:
    d = sdiv 40, y
    c = sgt d, 0
    brif c, fail, ok
fail:
    trap "sgt d, 0"
ok:
    ret d
out:
    ret -1
}

; x <u y with y >= 0: 0 <= x < y 
fn ult_guard(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = ult x, y
    brif g, g2, out
g2:
    d = add x, 0
    c = sge x, y
    brif c, fail, ok
fail:
    trap "sge x, y"
ok:
    ret d
out:
    ret -1
}

; near miss: y may be negative (huge unsigned): x <u y says nothing signed
fn ult_guard_negative_bound(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = ult x, y
    brif g, g1, out
g1:
    d = add x, 0
    c = sge x, y
    brif c, fail, ok
fail:
    trap "sge x, y"
ok:
    ret d
out:
    ret -1
}

; x <=u y with y >= 0: 0 <= x <= y
fn ule_guard(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = ule x, y
    brif g, g2, out
g2:
    d = add x, 0
    c = sgt x, y
    brif c, fail, ok
fail:
    trap "sgt x, y"
ok:
    ret d
out:
    ret -1
}

; near miss: y may be negative
fn ule_guard_negative_bound(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = ule x, y
    brif g, g1, out
g1:
    d = add x, 0
    c = sgt x, y
    brif c, fail, ok
fail:
    trap "sgt x, y"
ok:
    ret d
out:
    ret -1
}

; y >u x is x <u y
fn ugt_guard(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = ugt y, x
    brif g, g2, out
g2:
    d = add x, 0
    c = sge x, y
    brif c, fail, ok
fail:
    trap "sge x, y"
ok:
    ret d
out:
    ret -1
}

; y >=u x is x <=u y
fn uge_guard(x: i64, y: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge y, 0
    brif g, g1, out
g1:
    g = uge y, x
    brif g, g2, out
g2:
    d = add x, 0
    c = sgt x, y
    brif c, fail, ok
fail:
    trap "sgt x, y"
ok:
    ret d
out:
    ret -1
}

; x >= 5 and x != 5: x >= 6 (the loop-exit rule, constant on the left of the implied bound)
fn ne_above_known_bound(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 5
    brif g, g1, out
g1:
    g = ne x, 5
    brif g, g2, out
g2:
    d = add x, 0
    c = slt x, 6
    brif c, fail, ok
fail:
    trap "slt x, 6"
ok:
    ret d
out:
    ret -1
}

; near miss: x >= 0 and x != 5 says nothing about x >= 6
fn ne_without_bound(x: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sge x, 0
    brif g, g1, out
g1:
    g = ne x, 5
    brif g, g2, out
g2:
    d = add x, 0
    c = slt x, 6
    brif c, fail, ok
fail:
    trap "slt x, 6"
ok:
    ret d
out:
    ret -1
}

; p <= 0 and q >= 0 (one bound each): the sum cannot wrap either way, d >= p
fn add_nonpositive_to_nonnegative(p: i64, q: i64) -> i64 {
    var d: i64
    var g: bool
    var c: bool
entry:
    g = sle p, 0
    brif g, g1, out
g1:
    g = sge q, 0
    brif g, g2, out
g2:
    d = add p, q
    c = slt d, p
    brif c, fail, ok
fail:
    trap "slt d, p"
ok:
    ret d
out:
    ret -1
}
