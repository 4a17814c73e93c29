#!/usr/bin/env python3
"""Writes a stress module of one of several shapes as `.pir` text (docs/benchmarks.md, "Issue 9,
eighth session: shapes across functions and loops").

    python3 benches/text/gen_shapes.py functions N FILE   # N functions `f<k>(x) = x + k`
    python3 benches/text/gen_shapes.py main N FILE        # the same, and `main` calling each once
    python3 benches/text/gen_shapes.py chain N FILE       # f0 calls f1 calls ... f<N-1>
    python3 benches/text/gen_shapes.py nest D FILE        # one function, loops nested D deep
    python3 benches/text/gen_shapes.py vecs N FILE        # one function: N vecs, then each popped
    python3 benches/text/gen_shapes.py consts N FILE      # one block: N additions, N/3 divisions
    python3 benches/text/gen_shapes.py wide N FILE        # a struct of N fields, each read by name
    python3 benches/text/gen_shapes.py join N FILE        # N arms `x == k` into one join block
    python3 benches/text/gen_shapes.py args N FILE        # a call of N arguments to N parameters
    python3 benches/text/gen_shapes.py diamonds N FILE    # N diamonds reading a running sum in both arms
    python3 benches/text/gen_shapes.py divs N FILE        # N checked divisions into one running sum
    python3 benches/text/gen_shapes.py reads N FILE       # N checked reads v[k] into one running sum
    python3 benches/text/gen_shapes.py loaded N FILE      # N checked reads into N locals, then their sum
    python3 benches/text/gen_shapes.py guarded N FILE     # N indices each guarded once, then all read in a loop
    python3 benches/text/gen_shapes.py aliased N FILE     # N copies of one vec pushed to and read in a loop
    python3 benches/text/gen_shapes.py kept N FILE        # one block of N checked reads, all indices read again

`functions` and `main` stress what the pipeline and the lowering do per function (a lookup by
name per function made them quadratic); `chain` stresses the inliner copying callees into
callers level by level (names grew with the depth); `nest` stresses dataflow over deep loop
nests. Each loop of `nest` runs once, so `poolopt run FILE --entry nest --args 0` ends.
`vecs` stresses register allocation: N vecs are created and pushed to in the entry block, then
each is tested and popped in a chain of blocks, so N live ranges cross most of the function
(`poolopt run FILE --entry vecs --args 3` returns 3 N).
`consts` stresses the lowering's per-block constants: one block adds N distinct constants and
divides by N / 3 distinct ones (the divisors are the block's shared constants; looking each up
in a list was quadratic). `poolopt run FILE --entry consts --args 5` ends.
`wide` stresses per-field work on one struct of N fields: it is made, pushed, read back and
each field read by name (the parser scanned the fields per name, the interpreter computed
the whole layout per field: both quadratic). `poolopt run FILE --entry wide --args 1` returns
2 N.
`join` is a dispatch chain whose N arms each assign one local and jump to one shared join
(simplify-cfg counted the join's predecessors once per arm: quadratic); `poolopt run FILE
--entry join --args 5` returns 25. `args` is a function of N parameters that sums them and a
caller passing N arguments (the backtracking register allocator is quadratic in values live
at once in their ABI places); `poolopt run FILE --entry args --args 1` returns N (N + 1) / 2.
`diamonds`, `divs` and `reads` stress Cranelift's e-graph elaboration at `--cl-opt speed`
(crates/jit/src/elaboration.rs): a running sum read only in both arms of the next diamond (a
checked division's -1 test is one) is recomputed whole in every arm, and a sum of loaded values
sinks past all the loads; `poolopt run FILE --entry diamonds|divs|reads --args 7` ends.
`loaded` holds N values live at once: each read goes to a local of its own and the sum comes
after all of them (crates/jit/src/tier.rs, `MAX_LIVE_AREA` and `MAX_BLOCK_LOCAL_SPAN`; the
test-support crate's `many_loaded_values`); `poolopt run FILE --entry loaded --args 7` returns
7 + N (N - 1) / 2.
`guarded` keeps N indices live across N blocks: each is computed and tested in a block of its
own, then a loop reads through all of them (liveness sets hold N locals in N blocks: the
pass manager's `MAX_LIVENESS_WORDS`, the liveness walks of `LiveWalk`); `aliased` copies one
vec parameter into N locals, so any two may be one vec, and pushes to and reads each in a
loop (every push shifts every length fact: the fact analysis's work budget, `MAX_WORK_BASE`);
`kept` reads N distinct indices in one block and again in the next, so the block's facts
grow to 2 N (the cap on a set, `MAX_SET_FACTS`). `poolopt run FILE --entry guarded|aliased|kept
--args 3` ends (`guarded` and `kept` trap: their vec has two elements).
"""

import sys


def functions(n, with_main):
    out = []
    for i in range(n):
        out.append(f"fn f{i}(x: i64) -> i64 {{\n    var t: i64\nentry:\n    t = add x, {i}\n    ret t\n}}\n")
    if with_main:
        out.append("fn main(x: i64) -> i64 {\n    var a: i64\nentry:\n    a = add x, 0")
        out.extend(f"    a = call f{i}(a)" for i in range(n))
        out.append("    ret a\n}\n")
    return "\n".join(out)


def chain(n):
    out = []
    for i in range(n):
        if i == n - 1:
            out.append(f"fn f{i}(x: i64) -> i64 {{\n    var t: i64\nentry:\n    t = add x, 1\n    ret t\n}}\n")
        else:
            out.append(
                f"fn f{i}(x: i64) -> i64 {{\n    var t: i64\n    var u: i64\nentry:\n"
                f"    t = add x, 1\n    u = call f{i + 1}(t)\n    ret u\n}}\n"
            )
    return "\n".join(out)


def nest(d):
    s = ["fn nest(n: i64) -> i64 {", "    var acc: i64", "    var c: bool", "    var v: vec<i64>", "    var l: i64"]
    s += [f"    var i{k}: i64" for k in range(d)]
    s.append("entry:\n    acc = copy n\n    v = new vec<i64>\n    push v, 1\n    i0 = copy 0\n    br h0")
    for k in range(d):
        s.append(f"h{k}:\n    c = slt i{k}, 1\n    brif c, b{k}, x{k}")
        if k + 1 < d:
            s.append(f"b{k}:\n    l = len v\n    acc = add acc, l\n    i{k + 1} = copy 0\n    br h{k + 1}")
        else:
            s.append(
                f"b{k}:\n    l = len v\n    c = sgt l, 0\n    brif c, p{k}, q{k}\n"
                f"p{k}:\n    l = pop v\n    push v, l\n    br q{k}\n"
                f"q{k}:\n    acc = add acc, 1\n    i{k} = add i{k}, 1\n    br h{k}"
            )
    for k in reversed(range(d)):
        if k == 0:
            s.append("x0:\n    ret acc")
        else:
            s.append(f"x{k}:\n    i{k - 1} = add i{k - 1}, 1\n    br h{k - 1}")
    s.append("}")
    return "\n".join(s) + "\n"


def vecs(n):
    s = ["fn vecs(k: i64) -> i64 {", "    var acc: i64", "    var c: bool", "    var l: i64"]
    s += [f"    var v{i}: vec<i64>" for i in range(n)]
    s.append("entry:\n    acc = copy 0")
    for i in range(n):
        s.append(f"    v{i} = new vec<i64>\n    push v{i}, k")
    s.append("    br g0")
    for i in range(n):
        s.append(
            f"g{i}:\n    l = len v{i}\n    c = sgt l, 0\n    brif c, p{i}, g{i + 1}\n"
            f"p{i}:\n    l = pop v{i}\n    acc = add acc, l\n    br g{i + 1}"
        )
    s.append(f"g{n}:\n    ret acc\n}}")
    return "\n".join(s) + "\n"


def consts(n):
    s = ["fn consts(x: i64) -> i64 {", "    var t: i64", "entry:", "    t = copy x"]
    for i in range(n):
        s.append(f"    t = add t, {1000003 * i + 7}")
        if i % 3 == 0:
            s.append(f"    t = sdiv t, {i + 2}")
    s.append("    ret t\n}")
    return "\n".join(s) + "\n"


def wide(n):
    fields = ", ".join(f"f{i}: i64" for i in range(n))
    s = [f"struct W {{ {fields} }}", "fn wide(x: i64) -> i64 {", "    var s: W", "    var u: W",
         "    var v: vec<W>", "    var t: i64", "    var acc: i64", "entry:", "    acc = copy 0"]
    s.append("    s = make W(" + ", ".join("x" for _ in range(n)) + ")")
    s.append("    v = new vec<W>\n    push v, s\n    u = get v[0]")
    for i in range(n):
        s.append(f"    t = getfield u.f{i}\n    acc = add acc, t\n    t = get v[0].f{i}\n    acc = add acc, t")
    s.append("    ret acc\n}")
    return "\n".join(s) + "\n"


def join(n):
    s = ["fn join(x: i64) -> i64 {", "    var c: bool", "    var r: i64", "entry:", "    br s0"]
    for k in range(n):
        s.append(f"s{k}:\n    c = eq x, {k}\n    brif c, a{k}, s{k + 1}\na{k}:\n    r = mul x, {k}\n    br done")
    s.append(f"s{n}:\n    r = copy -1\n    br done\ndone:\n    ret r\n}}")
    return "\n".join(s) + "\n"


def args(n):
    params = ", ".join(f"p{k}: i64" for k in range(n))
    s = [f"fn sum({params}) -> i64 {{", "    var acc: i64", "entry:", "    acc = copy 0"]
    s += [f"    acc = add acc, p{k}" for k in range(n)]
    s.append("    ret acc\n}")
    s.append("fn args(x: i64) -> i64 {\n    var r: i64\nentry:")
    s.append("    r = call sum(" + ", ".join("x" if k == 0 else str(k + 1) for k in range(n)) + ")")
    s.append("    ret r\n}")
    return "\n".join(s) + "\n"


def diamonds(n):
    s = ["fn diamonds(m: i64) -> i64 {", "    var s: i64", "    var t: i64", "    var c: bool",
         "entry:", "    s = copy m"]
    for k in range(n):
        s.append(f"    c = slt m, {k}\n    brif c, a{k}, b{k}\na{k}:\n    t = add s, 1\n    br j{k}\n"
                 f"b{k}:\n    t = sub s, 2\n    br j{k}\nj{k}:\n    s = add s, t")
    s.append("    ret s\n}")
    return "\n".join(s) + "\n"


def divs(n):
    s = ["fn divs(m: i64) -> i64 {", "    var s: i64", "    var x: i64", "entry:", "    s = copy m"]
    s += ["    x = sdiv s, m\n    s = add s, x"] * n
    s.append("    ret s\n}")
    return "\n".join(s) + "\n"


def reads(n):
    s = ["fn reads(m: i64) -> i64 {", "    var v: vec<i64>", "    var i: i64", "    var s: i64",
         "    var x: i64", "    var c: bool", "entry:", "    v = new vec<i64>", "    i = copy 0",
         "    br fill", "fill:", "    push v, i", "    i = add i, 1", f"    c = slt i, {n}",
         "    brif c, fill, start", "start:", "    s = copy m"]
    s += [f"    x = get v[{k}]\n    s = add s, x" for k in range(n)]
    s.append("    ret s\n}")
    return "\n".join(s) + "\n"


def loaded(n):
    s = ["fn loaded(m: i64) -> i64 {", "    var v: vec<i64>", "    var i: i64", "    var s: i64",
         "    var c: bool"]
    s += [f"    var x{k}: i64" for k in range(n)]
    s += ["entry:", "    v = new vec<i64>", "    i = copy 0", "    br fill", "fill:", "    push v, i",
          "    i = add i, 1", f"    c = slt i, {n}", "    brif c, fill, start", "start:",
          "    s = copy m"]
    s += [f"    x{k} = get v[{k}]" for k in range(n)]
    s += [f"    s = add s, x{k}" for k in range(n)]
    s.append("    ret s\n}")
    return "\n".join(s) + "\n"


def guarded(n):
    s = ["fn guarded(m: i64) -> i64 {", "    var v: vec<i64>", "    var j: i64", "    var s: i64",
         "    var x: i64", "    var c: bool", "    var l: i64"]
    for k in range(n):
        s += [f"    var i{k}: i64", f"    var c{k}: bool"]
    s += ["entry:", "    v = new vec<i64>", "    push v, 1", "    push v, 2", "    l = len v",
          "    s = copy 0", "    j = copy 0"]
    for k in range(n):
        s += [f"    i{k} = srem m, {k + 2}", f"    c{k} = sge i{k}, 0", f"    brif c{k}, g{k}, bad", f"g{k}:"]
    s += ["    br head", "head:", "    c = slt j, m", "    brif c, body, done", "body:"]
    for k in range(n):
        s += [f"    x = get v[i{k}]", "    s = add s, x"]
    s += ["    j = add j, 1", "    br head", "done:", "    ret s", "bad:", "    ret 0", "}"]
    return "\n".join(s) + "\n"


def aliased(n):
    s = ["fn copies(w: vec<i64>, m: i64) -> i64 {", "    var i: i64", "    var s: i64", "    var x: i64",
         "    var c: bool"]
    s += [f"    var v{k}: vec<i64>" for k in range(n)]
    s += ["entry:", "    i = copy 0", "    s = copy 0"]
    s += [f"    v{k} = copy w" for k in range(n)]
    s += ["    br head", "head:", "    c = slt i, m", "    brif c, body, done", "body:"]
    for k in range(n):
        s += [f"    push v{k}, i", f"    x = get v{k}[i]", "    s = add s, x"]
    s += ["    i = add i, 1", "    br head", "done:", "    ret s", "}", "",
          "fn aliased(m: i64) -> i64 {", "    var w: vec<i64>", "    var r: i64", "entry:",
          "    w = new vec<i64>", "    r = call copies(w, m)", "    ret r", "}"]
    return "\n".join(s) + "\n"


def kept(n):
    s = ["fn kept(m: i64) -> i64 {", "    var v: vec<i64>", "    var s: i64", "    var x: i64"]
    s += [f"    var i{k}: i64" for k in range(n)]
    s += ["entry:", "    v = new vec<i64>", "    push v, 1", "    s = copy 0"]
    s += [f"    i{k} = srem m, {k + 2}" for k in range(n)]
    for k in range(n):
        s += [f"    x = get v[i{k}]", "    s = add s, x"]
    s += ["    br again", "again:"]
    for k in range(n):
        s += [f"    x = get v[i{k}]", "    s = add s, x"]
    s += ["    ret s", "}"]
    return "\n".join(s) + "\n"


SHAPES = ("functions", "main", "chain", "nest", "vecs", "consts", "wide", "join", "args", "diamonds",
          "divs", "reads", "loaded", "guarded", "aliased", "kept")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    text = {
        "functions": lambda: functions(n, False),
        "main": lambda: functions(n, True),
        "chain": lambda: chain(n),
        "nest": lambda: nest(n),
        "vecs": lambda: vecs(n),
        "consts": lambda: consts(n),
        "wide": lambda: wide(n),
        "join": lambda: join(n),
        "args": lambda: args(n),
        "diamonds": lambda: diamonds(n),
        "divs": lambda: divs(n),
        "reads": lambda: reads(n),
        "loaded": lambda: loaded(n),
        "guarded": lambda: guarded(n),
        "aliased": lambda: aliased(n),
        "kept": lambda: kept(n),
    }[shape]()
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
