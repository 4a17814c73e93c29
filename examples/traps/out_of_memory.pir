; Pushes without end: the vec's growth passes the memory limit (1 GiB by default, see
; `poolopt run --max-memory`) and traps with `out_of_memory`.
fn main() -> i64 {
    var v: vec<i64>
    var k: i64
    var c: bool
entry:
    v = new vec<i64>
    k = copy 0
    br loop
loop:
    push v, k
    k = add k, 1
    c = sgt k, 0
    brif c, loop, done
done:
    ret k
}
