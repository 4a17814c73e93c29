//! A generator of one huge function, for measuring the back end on it (docs/jit.md, "Huge
//! functions"). Not a criterion bench: it writes the program text, and `poolopt run` is
//! measured on it with `/usr/bin/time -v`:
//!
//!     cargo bench --bench huge_function -- N FILE     # writes FILE with ~N instructions
//!     poolopt run FILE --entry huge --args 3 -O0
//!
//! The function `huge(seed: i64) -> i64` is a chain of segments of 14 instructions (plus
//! terminators): a diamond on the seed's low bit whose arms push to one of two vecs, a pop
//! guarded by a length test, an unguarded element read, arithmetic; every 16th segment adds a
//! small counted loop. The result mixes every value read, so nothing is dead.

use std::fmt::Write as _;

/// Instructions per segment, terminators excluded.
const SEGMENT: usize = 14;

fn generate(insts: usize) -> String {
    let segments = insts.div_ceil(SEGMENT).max(1);
    let mut s = String::with_capacity(segments * 400);
    s.push_str("fn huge(seed: i64) -> i64 {\n");
    for v in [
        "acc", "x", "t", "n", "i", "k", // i64
    ] {
        let _ = writeln!(s, "    var {v}: i64");
    }
    s.push_str("    var c: bool\n    var a: vec<i64>\n    var b: vec<i64>\n");
    s.push_str("entry:\n    a = new vec<i64>\n    b = new vec<i64>\n    push a, seed\n");
    s.push_str("    acc = copy seed\n    x = copy seed\n    br s0\n");
    for g in 0..segments {
        let next = format!("s{}", g + 1);
        // Diamond on the low bit of x: push to a or b.
        let _ = write!(
            s,
            "s{g}:\n    t = and x, 1\n    c = eq t, 0\n    brif c, l{g}, r{g}\n\
             l{g}:\n    push a, x\n    br j{g}\n\
             r{g}:\n    push b, acc\n    br j{g}\n\
             j{g}:\n    n = len b\n    c = sgt n, 0\n    brif c, p{g}, q{g}\n\
             p{g}:\n    t = pop b\n    acc = xor acc, t\n    br q{g}\n\
             q{g}:\n    n = len a\n    n = sub n, 1\n    t = get a[n]\n\
                 acc = add acc, t\n    x = mul x, 6364136223846793005\n    x = add x, {g}\n"
        );
        if g % 16 == 15 {
            let _ = write!(
                s,
                "    i = copy 0\n    br h{g}\n\
                 h{g}:\n    c = slt i, 3\n    brif c, b{g}, {next}\n\
                 b{g}:\n    k = pop a\n    acc = add acc, k\n    push a, k\n    i = add i, 1\n    br h{g}\n"
            );
        } else {
            let _ = writeln!(s, "    br {next}");
        }
    }
    let _ = write!(s, "s{segments}:\n    ret acc\n}}\n");
    s
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let (Some(n), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: cargo bench --bench huge_function -- INSTRUCTIONS FILE");
        std::process::exit(2);
    };
    let n: usize = match n.parse() {
        Ok(n) => n,
        Err(e) => {
            eprintln!("INSTRUCTIONS `{n}`: {e}");
            std::process::exit(2);
        }
    };
    let text = generate(n);
    if let Err(e) = std::fs::write(path, &text) {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
    eprintln!("wrote {path}: {} bytes, ~{n} instructions", text.len());
}
