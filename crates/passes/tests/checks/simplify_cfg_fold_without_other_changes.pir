; passes: simplify-cfg
; runs: main(0) main(1) main(-2)
; A branch with equal targets folds to a jump, and that is the only change: the target has
; another predecessor (no merge), holds instructions (no threading), and no block becomes
; unreachable. The pass must still report the change (every case program also checks that
; the reported change matches the printed IR: crates/passes/tests/reporting.rs).
; contains: main |     br join\n
; lacks: main | brif c, join, join
; stat: simplify-cfg branches_simplified = 1
fn main(k: i64) -> i64 {
    var c: bool
    var x: i64
entry:
    x = copy k
    c = sgt k, 0
    brif c, inc, mid
inc:
    x = add x, 1
    br join
mid:
    x = mul x, 3
    c = eq x, 0
    brif c, join, join
join:
    x = add x, 7
    ret x
}
