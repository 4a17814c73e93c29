//! Generated programs of shapes that stress the compiler's algorithms, shared by the suites
//! that test those algorithms.

/// `nest(n)`: loops nested `depth` deep, each counter read in its header and stepped after the
/// inner loop; the innermost body pushes and pops (the shape of `benches/text/gen_shapes.py
/// nest`). Each loop runs once, and `nest(n)` returns `n + depth`.
pub fn loop_nest(depth: usize) -> String {
    let mut s = String::from("fn nest(n: i64) -> i64 {\n    var acc: i64\n    var c: bool\n    var v: vec<i64>\n    var l: i64\n");
    for k in 0..depth {
        s += &format!("    var i{k}: i64\n");
    }
    s += "entry:\n    acc = copy n\n    v = new vec<i64>\n    push v, 1\n    i0 = copy 0\n    br h0\n";
    for k in 0..depth {
        s += &format!("h{k}:\n    c = slt i{k}, 1\n    brif c, b{k}, x{k}\n");
        if k + 1 < depth {
            s += &format!(
                "b{k}:\n    l = len v\n    acc = add acc, l\n    i{} = copy 0\n    br h{}\n",
                k + 1,
                k + 1
            );
        } else {
            s += &format!("b{k}:\n    l = len v\n    c = sgt l, 0\n    brif c, p{k}, q{k}\np{k}:\n    l = pop v\n    push v, l\n    br q{k}\nq{k}:\n    acc = add acc, 1\n    i{k} = add i{k}, 1\n    br h{k}\n");
        }
    }
    for k in (0..depth).rev() {
        if k == 0 {
            s += "x0:\n    ret acc\n";
        } else {
            s += &format!(
                "x{k}:\n    i{} = add i{}, 1\n    br h{}\n",
                k - 1,
                k - 1,
                k - 1
            );
        }
    }
    s + "}\n"
}
