; passes: inline, temp-elision, copy-prop
; entry: main
; args: 5
; expect: value 11
; Near miss for binding a parameter to its argument: `bump` assigns its parameter, so the copy
; must get a fresh local (`bump_x = copy a`). Bound to `a` itself, the copy's `x = add x, 1`
; would change the caller's `a` and `main` would return 6 + 6 = 12.
fn bump(x: i64) -> i64 {
entry:
    x = add x, 1
    ret x
}

fn main(a: i64) -> i64 {
    var r: i64
    var s: i64
entry:
    r = call bump(a)
    s = add r, a
    ret s
}
