#!/usr/bin/env python3
"""Writes a large, valid .pir file for measuring the text front end (docs/frontend-performance.md).

    python3 benches/text/gen_large_pir.py INSTS [--funcs N] > big.pir

The file holds N functions (default 1) of about INSTS/N instructions each: blocks of nine
instructions (arithmetic, a compare, a struct make and field read, a push, a len, a call) and a
branch, over 32 i64 temporaries, so `poolopt check big.pir` parses and verifies it.
"""
import sys


def main():
    args = sys.argv[1:]
    if not args or not args[0].isdigit():
        sys.exit(__doc__)
    insts = int(args[0])
    funcs = int(args[args.index("--funcs") + 1]) if "--funcs" in args else 1
    out = sys.stdout
    out.write("struct S8 { a: i32, b: i32 }\n\n")
    out.write("fn helper(x: i64, y: i64) -> i64 {\n    var r: i64\nentry:\n    r = xor x, y\n    ret r\n}\n")
    per_func = max(insts // funcs, 10)
    for f in range(funcs):
        blocks = max(per_func // 9, 1)
        out.write(f"\nfn work{f}(n: i64) -> i64 {{\n")
        for t in range(32):
            out.write(f"    var t{t}: i64\n")
        out.write("    var c: bool\n    var s: S8\n    var w: i32\n    var v: vec<i64>\n")
        out.write("entry:\n    v = new vec<i64>\n    t0 = copy n\n    br b0\n")
        lines = []
        for k in range(blocks):
            i, j = k % 32, (k * 7 + 3) % 32
            i2, i3, i4, i5 = (i + 1) % 32, (i + 2) % 32, (i + 3) % 32, (i + 4) % 32
            nxt = f"b{k + 1}" if k + 1 < blocks else "done"
            lines.append(
                f"b{k}:\n"
                f"    t{i} = add t{j}, {k}\n"
                f"    t{i2} = mul t{i}, 3\n"
                f"    c = slt t{i2}, t{j}\n"
                f"    w = trunc t{i}\n"
                f"    s = make S8(w, 7)\n"
                f"    w = getfield s.b\n"
                f"    push v, t{i3}\n"
                f"    t{i4} = len v\n"
                f"    t{i5} = call helper(t{i4}, t{i})\n"
                f"    brif c, {nxt}, {nxt}\n"
            )
            if len(lines) >= 4096:
                out.write("".join(lines))
                lines.clear()
        out.write("".join(lines))
        out.write("done:\n    drop v\n    ret t0\n}\n")


if __name__ == "__main__":
    main()
