//! The bit-count instructions `ctz`, `clz` and `popcnt`: at every integer width, on 0, -1 and
//! other edge values, the interpreter and the JIT (O0/O1/O2 × Cranelift `none`/`speed`) agree
//! with a Rust reference; the text format round-trips them; the verifier rejects them on bool.

mod common;

use common::{load_str, run_everywhere, Outcome};
use poolopt::ir::{parse, print_module, UnaryOp};
use poolopt::RunLimits;

const OPS: [UnaryOp; 3] = [UnaryOp::Ctz, UnaryOp::Clz, UnaryOp::Popcnt];
const WIDTHS: [(&str, u32); 4] = [("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64)];

/// One function per (op, width): `op_w(a: i64) -> i64` truncates `a` to the width, applies
/// the op there and sign-extends the count back (so the op itself runs at the narrow width).
fn module_text() -> String {
    let mut text = String::new();
    for op in OPS {
        for (w, _) in WIDTHS {
            let name = op.name();
            let body = if w == "i64" {
                format!("    var d: i64\nentry:\n    d = {name} a\n    ret d\n")
            } else {
                format!(
                    "    var x: {w}\n    var c: {w}\n    var d: i64\nentry:\n    x = trunc a\n    \
                     c = {name} x\n    d = sext c\n    ret d\n"
                )
            };
            text.push_str(&format!("fn {name}_{w}(a: i64) -> i64 {{\n{body}}}\n\n"));
        }
    }
    text
}

/// The count computed by Rust's own integer methods on the low `bits` bits of `a`.
fn reference(op: UnaryOp, bits: u32, a: i64) -> i64 {
    let r = match bits {
        8 => {
            let x = a as u8;
            match op {
                UnaryOp::Ctz => x.trailing_zeros(),
                UnaryOp::Clz => x.leading_zeros(),
                _ => x.count_ones(),
            }
        }
        16 => {
            let x = a as u16;
            match op {
                UnaryOp::Ctz => x.trailing_zeros(),
                UnaryOp::Clz => x.leading_zeros(),
                _ => x.count_ones(),
            }
        }
        32 => {
            let x = a as u32;
            match op {
                UnaryOp::Ctz => x.trailing_zeros(),
                UnaryOp::Clz => x.leading_zeros(),
                _ => x.count_ones(),
            }
        }
        _ => {
            let x = a as u64;
            match op {
                UnaryOp::Ctz => x.trailing_zeros(),
                UnaryOp::Clz => x.leading_zeros(),
                _ => x.count_ones(),
            }
        }
    };
    i64::from(r)
}

const INPUTS: [i64; 14] = [
    0,
    -1,
    1,
    2,
    0x80,
    0x100,
    0x8000,
    0x7fff_ffff,
    0x8000_0000,
    0x0f0f_0f0f_0f0f_0f0f,
    i64::MAX,
    i64::MIN,
    0x10_0000_0000,
    -4096,
];

#[test]
fn bit_counts_agree_everywhere_at_every_width() {
    let module = load_str("bit_count.pir", &module_text());
    let limits = RunLimits::default();
    let mut checked = 0;
    for op in OPS {
        for (w, bits) in WIDTHS {
            let entry = format!("{}_{w}", op.name());
            for a in INPUTS {
                let got = run_everywhere(&module, &entry, &[a], &limits);
                assert_eq!(
                    got,
                    Outcome::Value(reference(op, bits, a)),
                    "{entry}({a:#x})"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, OPS.len() * WIDTHS.len() * INPUTS.len());
}

#[test]
fn zero_counts_to_the_width_and_minus_one_to_zero_or_the_width() {
    // Worked out by hand: 0 has no one bit (ctz = clz = width, popcnt = 0); -1 has all of
    // them (ctz = clz = 0, popcnt = width).
    let module = load_str("bit_count.pir", &module_text());
    let limits = RunLimits::default();
    for (w, bits) in WIDTHS {
        let run = |op: &str, a: i64| run_everywhere(&module, &format!("{op}_{w}"), &[a], &limits);
        let bits = i64::from(bits);
        assert_eq!(run("ctz", 0), Outcome::Value(bits), "ctz_{w}(0)");
        assert_eq!(run("clz", 0), Outcome::Value(bits), "clz_{w}(0)");
        assert_eq!(run("popcnt", 0), Outcome::Value(0), "popcnt_{w}(0)");
        assert_eq!(run("ctz", -1), Outcome::Value(0), "ctz_{w}(-1)");
        assert_eq!(run("clz", -1), Outcome::Value(0), "clz_{w}(-1)");
        assert_eq!(run("popcnt", -1), Outcome::Value(bits), "popcnt_{w}(-1)");
    }
}

#[test]
fn text_format_round_trips_the_bit_counts() {
    let text = module_text();
    let module = parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let printed = print_module(&module);
    for op in ["ctz", "clz", "popcnt"] {
        assert!(
            printed.contains(&format!("c = {op} x")),
            "{op} in:\n{printed}"
        );
        assert!(
            printed.contains(&format!("d = {op} a")),
            "{op} in:\n{printed}"
        );
    }
    let again = parse(&printed).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(print_module(&again), printed);
}

#[test]
fn the_verifier_rejects_bit_counts_on_bool() {
    for op in ["ctz", "clz", "popcnt"] {
        let text = format!(
            "fn f(b: bool) -> bool {{\n    var d: bool\nentry:\n    d = {op} b\n    ret d\n}}\n"
        );
        let err = poolopt::parse_and_verify("bool.pir", &text)
            .err()
            .unwrap_or_else(|| panic!("`{op}` on bool verified"));
        let message = err.to_string();
        assert!(message.contains("bool.pir:4:"), "{op}: {message}");
    }
}
