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

/// `loaded(m)`: a vec filled with `0..n`, then one block that reads each element into a local
/// of its own (`x_k = get v[k]`, checked) and, after all the reads, adds them to `m` — in the
/// same block, or with `split` in the next one, so the `n` values are live at once (the shape
/// `MAX_LIVE_AREA` and `MAX_BLOCK_LOCAL_SPAN` in crates/jit/src/tier.rs bound); returns
/// `m + n (n - 1) / 2`.
pub fn many_loaded_values(n: usize, split: bool) -> String {
    let mut s = String::from(
        "fn loaded(m: i64) -> i64 {\n    var v: vec<i64>\n    var i: i64\n    var s: i64\n    var c: bool\n",
    );
    for k in 0..n {
        s += &format!("    var x{k}: i64\n");
    }
    s += &format!(
        "entry:\n    v = new vec<i64>\n    i = copy 0\n    br fill\nfill:\n    push v, i\n    i = add i, 1\n    c = slt i, {n}\n    brif c, fill, start\nstart:\n    s = copy m\n"
    );
    for k in 0..n {
        s += &format!("    x{k} = get v[{k}]\n");
    }
    if split {
        s += "    br sum\nsum:\n";
    }
    for k in 0..n {
        s += &format!("    s = add s, x{k}\n");
    }
    s + "    ret s\n}\n"
}

/// `aliased_vecs(w, m)`: `n` vec locals, all copies of the parameter `w` (so any two may be
/// one vec), each pushed to and read back (a checked read) in a loop: every push shifts the
/// length of every other vec, `n` steps at each of `n` pushes (the fact analysis's work
/// budget; the shape of `benches/text/gen_shapes.py aliased`).
pub fn aliased_vecs(n: usize) -> String {
    let mut s = String::from(
        "fn aliased_vecs(w: vec<i64>, m: i64) -> i64 {\n    var i: i64\n    var s: i64\n    var x: i64\n    var c: bool\n",
    );
    for k in 0..n {
        s += &format!("    var v{k}: vec<i64>\n");
    }
    s += "entry:\n    i = copy 0\n    s = copy 0\n";
    for k in 0..n {
        s += &format!("    v{k} = copy w\n");
    }
    s += "    br head\nhead:\n    c = slt i, m\n    brif c, body, done\nbody:\n";
    for k in 0..n {
        s += &format!("    push v{k}, i\n    x = get v{k}[i]\n    s = add s, x\n");
    }
    s + "    i = add i, 1\n    br head\ndone:\n    ret s\n}\n"
}

/// `kept_reads(m)`: one block of `n` checked reads of distinct indices (`i_k = m srem (k +
/// 2)`), all read again in the next block `again`, so every index and its facts stay live
/// (the cap on a fact set; the shape of `benches/text/gen_shapes.py kept`).
pub fn kept_reads(n: usize) -> String {
    let mut s = String::from(
        "fn kept_reads(m: i64) -> i64 {\n    var v: vec<i64>\n    var s: i64\n    var x: i64\n",
    );
    for k in 0..n {
        s += &format!("    var i{k}: i64\n");
    }
    s += "entry:\n    v = new vec<i64>\n    push v, 1\n    s = copy 0\n";
    for k in 0..n {
        s += &format!("    i{k} = srem m, {}\n", k + 2);
    }
    for k in 0..n {
        s += &format!("    x = get v[i{k}]\n    s = add s, x\n");
    }
    s += "    br again\nagain:\n";
    for k in 0..n {
        s += &format!("    x = get v[i{k}]\n    s = add s, x\n");
    }
    s + "    ret s\n}\n"
}
