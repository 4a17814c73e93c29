//! A stable-toolchain stand-in for fuzzing: every `.pir` file under examples/ and tests/ is
//! mutated (byte flips, truncations, token swaps and replacements, line deletions and
//! duplications) and each mutant goes through parse, verify, O2 (verifying after every pass)
//! and compilation; verified mutants with an entry function also run, with small fuel and
//! memory limits, in the interpreter (before and after O2) and in the JIT. Nothing may panic,
//! compilation of a verified module must succeed, the optimized module must not violate an
//! unchecked operation's precondition, and the JIT must agree with the interpreter (unless
//! one of them ran out of fuel: the passes change how much fuel a program needs).
//!
//! `POOLOPT_MUTANTS=N` sets the number of mutants per file (default 100).

use poolopt::ir::{parse, verify, verify_entry};
use poolopt::{
    ClOpt, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits, Session, TrapKind,
    VerifiedModule,
};
use poolopt_test_support::{pir_files_below, XorShift};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pir_files() -> Vec<PathBuf> {
    pir_files_below(&[root().join("examples"), root().join("tests")])
}

/// Tokens of the text: maximal runs of identifier/number characters, and single other
/// non-space characters.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
        } else if word(bytes[i]) {
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push((i, i + len));
            i += len;
        }
    }
    out
}

/// Interesting replacement tokens.
const SPICE: [&str; 14] = [
    "0",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "0xffffffffffffffff",
    "i8",
    "bool",
    "vec",
    "unchecked",
    "packed",
    "\"",
    "{",
    "\n",
    "pop",
];

/// One mutant of `src`.
fn mutate(src: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut out = src.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let text = String::from_utf8_lossy(&out).into_owned();
        let toks = tokens(&text);
        match rng.below(8) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let n = rng.below(out.len() + 1);
                out.truncate(n);
            }
            2 | 3 if toks.len() >= 2 => {
                // Swap two tokens.
                let (a, b) = (toks[rng.below(toks.len())], toks[rng.below(toks.len())]);
                let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                if a.1 <= b.0 {
                    let mut s = String::new();
                    s.push_str(&text[..a.0]);
                    s.push_str(&text[b.0..b.1]);
                    s.push_str(&text[a.1..b.0]);
                    s.push_str(&text[a.0..a.1]);
                    s.push_str(&text[b.1..]);
                    out = s.into_bytes();
                }
            }
            4 if !toks.is_empty() => {
                // Replace a token with another token of the file or a spicy one.
                let a = toks[rng.below(toks.len())];
                let with = if rng.below(2) == 0 {
                    let b = toks[rng.below(toks.len())];
                    text[b.0..b.1].to_string()
                } else {
                    SPICE[rng.below(SPICE.len())].to_string()
                };
                out = format!("{}{}{}", &text[..a.0], with, &text[a.1..]).into_bytes();
            }
            5 => {
                // Delete or duplicate a line.
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len());
                    let mut s = String::new();
                    for (j, l) in lines.iter().enumerate() {
                        if j != i || rng.below(2) == 0 {
                            s.push_str(l);
                        }
                        if j == i {
                            s.push_str(l);
                        }
                    }
                    out = s.into_bytes();
                }
            }
            6 if !toks.is_empty() => {
                // Delete a token.
                let a = toks[rng.below(toks.len())];
                out = format!("{}{}", &text[..a.0], &text[a.1..]).into_bytes();
            }
            _ if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = [0u8, b'\n', b';', b'}', 0xff, b'9'][rng.below(6)];
            }
            _ => {}
        }
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    mutants: usize,
    parsed: usize,
    verified: usize,
    ran: usize,
}

const LIMITS: RunLimits = RunLimits {
    max_memory: 1 << 16,
    fuel: Some(20_000),
    max_depth: 64,
};

/// A value or a trap kind; `None` for out of fuel (not comparable across levels).
fn comparable(r: Result<i64, TrapKind>) -> Option<Result<i64, TrapKind>> {
    match r {
        Err(TrapKind::OutOfFuel) => None,
        other => Some(other),
    }
}

fn exercise(name: &str, bytes: &[u8], tally: &mut Tally) {
    tally.mutants += 1;
    let Ok(src) = std::str::from_utf8(bytes) else {
        // The parser takes &str; invalid UTF-8 is rejected before it (by the CLI too).
        return;
    };
    let Ok(module) = parse(src) else { return };
    tally.parsed += 1;
    if verify(&module).is_err() {
        return;
    }
    tally.verified += 1;
    let module = VerifiedModule::new(module).unwrap();
    let session = Session::new(module.clone())
        .optimize(&PassManager::for_level(OptLevel::O2).verify_each(true))
        .unwrap_or_else(|e| panic!("{name}: O2 failed on a verified module: {e}\n{src}"));
    let compiled = session
        .compile_with(&JitOptions {
            cl_opt: ClOpt::Speed,
            fuel: true,
        })
        .unwrap_or_else(|e| panic!("{name}: compiling a verified module failed: {e}\n{src}"));
    // Run `main` if it can be an entry, else the first function that can.
    let m = module.module();
    let entry = std::iter::once("main")
        .chain(m.funcs.values().map(|f| f.name.as_str()))
        .find(|e| m.func_by_name(e).is_some() && verify_entry(m, e).is_ok());
    let Some(entry) = entry else { return };
    let nparams = m.funcs[m.func_by_name(entry).unwrap()].params.len();
    let args: Vec<i64> = (0..nparams as i64).map(|i| 3 - i).collect();
    tally.ran += 1;
    let interp =
        |vm: &VerifiedModule| match poolopt::interp::run(vm.module(), entry, &args, &LIMITS) {
            Ok(v) => Ok(v),
            Err(InterpError::Trap(t)) => Err(t.kind),
            Err(e) => panic!("{name}: interpreter: {e}\n{src}"),
        };
    let reference = interp(&module);
    let optimized = interp(session.module());
    let jit = match compiled.run(entry, &args, &LIMITS) {
        Ok(v) => Ok(v),
        Err(RunError::Trap(t)) => Err(t.kind),
        Err(e) => panic!("{name}: JIT run: {e}\n{src}"),
    };
    if let (Some(a), Some(b)) = (comparable(reference), comparable(optimized)) {
        assert_eq!(
            a, b,
            "{name}: interpreter O0 vs O2 on {entry}{args:?}\n{src}"
        );
    }
    if let (Some(a), Some(b)) = (comparable(reference), comparable(jit)) {
        assert_eq!(
            a, b,
            "{name}: interpreter O0 vs JIT O2 on {entry}{args:?}\n{src}"
        );
    }
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn mutated_programs_never_panic() {
    let per_file: usize = std::env::var("POOLOPT_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let files = pir_files();
    assert!(
        files.len() >= 10,
        "the corpus is too small: {}",
        files.len()
    );
    let mut tally = Tally::default();
    for (fi, path) in files.iter().enumerate() {
        let src = std::fs::read(path).unwrap();
        let name = rel(path);
        // The original too (malformed files included).
        exercise(&name, &src, &mut tally);
        let mut rng =
            XorShift::new(0x2545_f491_4f6c_dd1d ^ (fi as u64 + 1).wrapping_mul(0x9e37_79b9));
        for k in 0..per_file {
            let mutant = mutate(&src, &mut rng);
            exercise(&format!("{name} (mutant {k})"), &mutant, &mut tally);
        }
    }
    eprintln!("mutation corpus: {tally:?}");
    // The corpus must exercise every stage, or this test proves little.
    assert!(tally.verified * 10 >= tally.mutants, "{tally:?}");
    assert!(tally.ran * 20 >= tally.mutants, "{tally:?}");
}
