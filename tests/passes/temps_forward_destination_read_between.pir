; passes: temp-elision
; entry: main
; args: 5, 100
; expect: value 200
; Near miss of the forward form: `t = add x, 1 ... d = copy t` cannot become `d = add x, 1`
; when `d` is read in between (`y = copy d` must still see the old `d`, 100; writing `d`
; early would give it 6). The producer reading `d` itself is fine (second block).
fn main(x: i64, d: i64) -> i64 {
    var t: i64
    var y: i64
    var u: i64
entry:
    t = add x, 1
    y = copy d
    d = copy t
    br next
next:
    u = add d, 94
    d = copy u
    d = add d, y
    ret d
}
