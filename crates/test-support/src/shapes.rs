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

/// `vecs(k)`: `n` vecs created and pushed to (`k`) in the entry block, then each tested and
/// popped in a chain of blocks, so `n` live ranges cross most of the function (the shape of
/// `benches/text/gen_shapes.py vecs`); returns `n * k`.
pub fn many_vecs(n: usize) -> String {
    let mut s = String::from(
        "fn vecs(k: i64) -> i64 {\n    var acc: i64\n    var c: bool\n    var l: i64\n",
    );
    for i in 0..n {
        s += &format!("    var v{i}: vec<i64>\n");
    }
    s += "entry:\n    acc = copy 0\n";
    for i in 0..n {
        s += &format!("    v{i} = new vec<i64>\n    push v{i}, k\n");
    }
    s += "    br g0\n";
    for i in 0..n {
        s += &format!(
            "g{i}:\n    l = len v{i}\n    c = sgt l, 0\n    brif c, p{i}, g{}\np{i}:\n    l = pop v{i}\n    acc = add acc, l\n    br g{}\n",
            i + 1,
            i + 1
        );
    }
    s + &format!("g{n}:\n    ret acc\n}}\n")
}
