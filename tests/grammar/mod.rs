//! A structure-aware program generator for fuzzing: [`arbitrary`] bytes become a small AST of
//! the whole text format — every instruction form, the unchecked ones included, packed locals,
//! calls with and without results, every terminator — which is printed as text. Types are
//! usually right (so most programs verify and run) and sometimes deliberately wrong.
//!
//! [`check_program`] is the property: the text parses; the verifier either refuses it (it must,
//! when it holds an unchecked operation) or the program runs to the same value or trap in the
//! interpreter and in the JIT at every level and Cranelift level — never a panic, never a
//! signal. Used by `tests/grammar_fuzz.rs` (proptest) and `fuzz/fuzz_targets/grammar.rs`.

#![allow(dead_code)]

use arbitrary::{Result, Unstructured};
use poolopt::{
    ClOpt, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits, Session, TrapKind,
};
use std::fmt::Write;

/// The scalar locals every function declares, by type: (name, type).
const SCALARS: &[(&str, &str)] = &[
    ("a", "i64"),
    ("b", "i64"),
    ("c", "i32"),
    ("d", "i8"),
    ("e", "i16"),
    ("f", "bool"),
];
/// Vec locals: (name, element type).
const VECS: &[(&str, &str)] = &[("v", "i64"), ("w", "i64"), ("u", "S"), ("q", "i8")];
/// Struct locals of `S { x: i32, y: i8 }` (`t` is packed).
const STRUCTS: &[&str] = &["s", "t"];
const FIELDS: &[(&str, &str)] = &[("x", "i32"), ("y", "i8")];
const BINOPS: &[&str] = &[
    "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor", "shl", "lshr", "ashr",
];
const CMPOPS: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
const CONSTS: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    100,
    -128,
    255,
    i64::MIN,
    i64::MAX,
    1 << 40,
];
/// Functions: main(m0: i64, m1: i64) -> i64, helper(h: i64, hv: vec<i64>) -> i64,
/// mkvec(k: i64) -> vec<i64>, mks(k: i64) -> S, sink(z: vec<i64>).
const FUNCS: &[&str] = &["main", "helper", "mkvec", "mks", "sink"];

/// Whether the program holds an unchecked operation (the verifier must then refuse it).
pub struct Program {
    pub text: String,
    pub has_unchecked: bool,
    pub args: [i64; 2],
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    out: String,
    has_unchecked: bool,
    /// Whether this program may use unchecked forms (a quarter of them do).
    unchecked_allowed: bool,
}

impl Gen<'_, '_> {
    fn pick<'t>(&mut self, items: &[&'t str]) -> Result<&'t str> {
        Ok(items[self.u.choose_index(items.len())?])
    }

    /// A constant that usually fits every integer type.
    fn constant(&mut self) -> Result<i64> {
        if self.u.ratio(1, 8)? {
            Ok(*self.u.choose(CONSTS)?)
        } else {
            Ok(self.u.int_in_range(-3..=9)?)
        }
    }

    /// An operand of scalar type `ty` (a local of that type or a constant); now and then any
    /// local, which may not verify.
    fn operand(&mut self, ty: &str) -> Result<String> {
        if self.u.ratio(1, 80)? {
            let all: Vec<&str> = SCALARS.iter().map(|s| s.0).collect();
            return Ok(self.pick(&all)?.to_string());
        }
        let of_type: Vec<&str> = SCALARS.iter().filter(|s| s.1 == ty).map(|s| s.0).collect();
        if of_type.is_empty() || self.u.ratio(1, 3)? {
            if ty == "bool" {
                return Ok(self.pick(&["true", "false", "0", "1"])?.to_string());
            }
            return Ok(self.constant()?.to_string());
        }
        Ok(self.pick(&of_type)?.to_string())
    }

    fn scalar_local(&mut self) -> Result<(&'static str, &'static str)> {
        Ok(*self.u.choose(SCALARS)?)
    }

    fn int_local(&mut self) -> Result<(&'static str, &'static str)> {
        let ints: Vec<(&str, &str)> = SCALARS.iter().copied().filter(|s| s.1 != "bool").collect();
        Ok(ints[self.u.choose_index(ints.len())?])
    }

    fn unchecked(&mut self) -> Result<&'static str> {
        if self.unchecked_allowed && self.u.ratio(1, 6)? {
            self.has_unchecked = true;
            Ok(".unchecked")
        } else {
            Ok("")
        }
    }

    fn index(&mut self) -> Result<String> {
        if self.u.ratio(1, 3)? {
            Ok(self.u.int_in_range(-1..=4)?.to_string())
        } else {
            Ok(self.pick(&["a", "b"])?.to_string())
        }
    }

    /// One instruction line (without indentation or newline).
    fn inst(&mut self, func: &str) -> Result<String> {
        Ok(match self.u.int_in_range(0..=21)? {
            0 => {
                let (d, ty) = self.scalar_local()?;
                format!("{d} = copy {}", self.operand(ty)?)
            }
            1 => {
                let (d, ty) = self.scalar_local()?;
                let op = if ty == "bool" {
                    "not"
                } else {
                    self.pick(&["neg", "not"])?
                };
                format!("{d} = {op} {}", self.operand(ty)?)
            }
            2 | 3 => {
                let (d, ty) = self.int_local()?;
                let op = self.pick(BINOPS)?;
                // The divisions have an unchecked form too.
                let suffix = if ["sdiv", "udiv", "srem", "urem"].contains(&op) {
                    self.unchecked()?
                } else {
                    ""
                };
                let (x, y) = (self.operand(ty)?, self.operand(ty)?);
                format!("{d} = {op}{suffix} {x}, {y}")
            }
            4 => {
                let op = self.pick(CMPOPS)?;
                let (_, ty) = self.int_local()?;
                let x = self.pick(
                    &SCALARS
                        .iter()
                        .filter(|s| s.1 == ty)
                        .map(|s| s.0)
                        .collect::<Vec<_>>(),
                )?;
                format!("f = {op} {x}, {}", self.operand(ty)?)
            }
            5 => {
                // Integer locals by width: d i8, e i16, c i32, a i64; f is the bool.
                let order = ["d", "e", "c", "a"];
                let (x, y) = (self.u.choose_index(4)?, self.u.choose_index(4)?);
                let (lo, hi) = (x.min(y), x.max(y));
                match self.u.int_in_range(0..=3)? {
                    _ if lo == hi => format!("f = trunc {}", order[lo]),
                    0 => format!("{} = sext {}", order[hi], order[lo]),
                    1 => format!("{} = zext {}", order[hi], order[lo]),
                    2 => format!("{} = zext f", order[hi]),
                    _ => format!("{} = trunc {}", order[lo], order[hi]),
                }
            }
            6 => {
                let st = self.pick(STRUCTS)?;
                format!(
                    "{st} = make S({}, {})",
                    self.operand("i32")?,
                    self.operand("i8")?
                )
            }
            7 => {
                let st = self.pick(STRUCTS)?;
                let (f, ty) = *self.u.choose(FIELDS)?;
                let d = if ty == "i32" { "c" } else { "d" };
                format!("{d} = getfield {st}.{f}")
            }
            8 => {
                let st = self.pick(STRUCTS)?;
                let (f, ty) = *self.u.choose(FIELDS)?;
                format!("setfield {st}.{f}, {}", self.operand(ty)?)
            }
            9 => {
                let (v, e) = *self.u.choose(VECS)?;
                format!("{v} = new vec<{e}>")
            }
            10 => {
                let (v, _) = *self.u.choose(VECS)?;
                format!("{} = len {v}", self.pick(&["a", "b"])?)
            }
            11 | 12 => {
                let (v, e) = *self.u.choose(VECS)?;
                let value = match e {
                    "S" => self.pick(STRUCTS)?.to_string(),
                    other => self.operand(other)?,
                };
                format!("push {v}, {value}")
            }
            13 => {
                let (v, e) = *self.u.choose(VECS)?;
                let uc = self.unchecked()?;
                let dst = match e {
                    "S" => self.pick(STRUCTS)?,
                    "i8" => "d",
                    _ => self.pick(&["a", "b"])?,
                };
                if self.u.ratio(1, 4)? {
                    format!("pop{uc} {v}")
                } else {
                    format!("{dst} = pop{uc} {v}")
                }
            }
            14 | 15 => {
                let (v, e) = *self.u.choose(VECS)?;
                let uc = self.unchecked()?;
                let i = self.index()?;
                match e {
                    "S" if self.u.ratio(1, 2)? => {
                        let (f, ty) = *self.u.choose(FIELDS)?;
                        let d = if ty == "i32" { "c" } else { "d" };
                        format!("{d} = get{uc} {v}[{i}].{f}")
                    }
                    "S" => format!("{} = get{uc} {v}[{i}]", self.pick(STRUCTS)?),
                    "i8" => format!("d = get{uc} {v}[{i}]"),
                    _ => format!("{} = get{uc} {v}[{i}]", self.pick(&["a", "b"])?),
                }
            }
            16 | 17 => {
                let (v, e) = *self.u.choose(VECS)?;
                let uc = self.unchecked()?;
                let i = self.index()?;
                match e {
                    "S" if self.u.ratio(1, 2)? => {
                        let (f, ty) = *self.u.choose(FIELDS)?;
                        format!("set{uc} {v}[{i}].{f}, {}", self.operand(ty)?)
                    }
                    "S" => format!("set{uc} {v}[{i}], {}", self.pick(STRUCTS)?),
                    other => format!("set{uc} {v}[{i}], {}", self.operand(other)?),
                }
            }
            18 => {
                let (v, _) = *self.u.choose(VECS)?;
                format!("drop {v}")
            }
            19 if func == "main" => {
                let v = self.pick(&["v", "w"])?;
                match self.u.int_in_range(0..=3)? {
                    0 => format!("a = call helper({}, {v})", self.operand("i64")?),
                    1 => format!("{v} = call mkvec({})", self.operand("i64")?),
                    2 => format!(
                        "{} = call mks({})",
                        self.pick(STRUCTS)?,
                        self.operand("i64")?
                    ),
                    _ => format!("call sink({v})"),
                }
            }
            20 => {
                // Vec and struct copies (aliasing).
                if self.u.ratio(1, 2)? {
                    let (x, y) = (self.pick(&["v", "w"])?, self.pick(&["v", "w"])?);
                    format!("{x} = copy {y}")
                } else {
                    let (x, y) = (self.pick(STRUCTS)?, self.pick(STRUCTS)?);
                    format!("{x} = copy {y}")
                }
            }
            _ => {
                let (d, ty) = self.scalar_local()?;
                format!("{d} = copy {}", self.operand(ty)?)
            }
        })
    }

    /// A function body: declarations, then blocks `b0..bn`. Branches go forward only, except
    /// one loop back edge guarded by a counter, so every program terminates.
    fn body(&mut self, func: &str, ret: &str) -> Result<()> {
        for (name, ty) in SCALARS {
            if !matches!((func, *name), ("main", "a") | ("main", "b")) {
                let _ = writeln!(self.out, "    var {name}: {ty}");
            }
        }
        for (name, e) in VECS {
            if !(func == "helper" && *name == "v") {
                let _ = writeln!(self.out, "    var {name}: vec<{e}>");
            }
        }
        let _ = writeln!(
            self.out,
            "    var s: S\n    var t: S packed\n    var k: i64\n    var g: bool"
        );
        let nblocks = self.u.int_in_range(1..=4)?;
        for b in 0..nblocks {
            let _ = writeln!(self.out, "b{b}:");
            if b == 0 {
                // Every vec starts assigned most of the time; `q` sometimes stays unassigned.
                let _ = writeln!(
                    self.out,
                    "    v = new vec<i64>\n    w = new vec<i64>\n    u = new vec<S>"
                );
                if self.u.ratio(3, 4)? {
                    let _ = writeln!(self.out, "    q = new vec<i8>");
                }
                let _ = writeln!(self.out, "    k = copy 0");
            }
            let n = self.u.int_in_range(0..=8)?;
            for _ in 0..n {
                let line = self.inst(func)?;
                let _ = writeln!(self.out, "    {line}");
            }
            let last = b + 1 == nblocks;
            // Every block but the last falls through to the next one on some path, so all
            // blocks are reachable (but for the rare early trap or return).
            let next = b + 1;
            let term = match self.u.int_in_range(0..=9)? {
                _ if last => self.ret(ret)?,
                0..=2 => format!("br b{next}"),
                3..=5 => {
                    let other = self.u.int_in_range(next..=nblocks - 1)?;
                    let cond = "f";
                    if self.u.ratio(1, 2)? {
                        format!("brif {cond}, b{next}, b{other}")
                    } else {
                        format!("brif {cond}, b{other}, b{next}")
                    }
                }
                6 | 7 => format!(
                    "k = add k, 1\n    g = slt k, {}\n    brif g, b{b}, b{next}",
                    self.u.int_in_range(1..=4)?
                ),
                8 => format!("brif f, b{next}, trapped{b}\ntrapped{b}:\n    trap \"fuzz\""),
                _ => format!("br b{next}"),
            };
            let _ = writeln!(self.out, "    {term}");
        }
        Ok(())
    }

    fn ret(&mut self, ret: &str) -> Result<String> {
        Ok(match ret {
            "i64" => format!("ret {}", self.operand("i64")?),
            "vec" => format!("ret {}", self.pick(&["v", "w"])?),
            "S" => format!("ret {}", self.pick(STRUCTS)?),
            _ => "ret".to_string(),
        })
    }
}

/// Generates one program from `u`.
pub fn program(u: &mut Unstructured<'_>) -> Result<Program> {
    let args = [u.int_in_range(-2..=6)?, u.arbitrary::<i64>()?];
    let mut g = Gen {
        u,
        out: String::from("struct S { x: i32, y: i8 }\n\n"),
        has_unchecked: false,
        unchecked_allowed: false,
    };
    g.unchecked_allowed = g.u.ratio(1, 4)?;
    let heads = [
        ("main", "fn main(a: i64, b: i64) -> i64 {", "i64"),
        ("helper", "fn helper(h: i64, v: vec<i64>) -> i64 {", "i64"),
        ("mkvec", "fn mkvec(h: i64) -> vec<i64> {", "vec"),
        ("mks", "fn mks(h: i64) -> S {", "S"),
        ("sink", "fn sink(z: vec<i64>) {", "none"),
    ];
    for (name, head, ret) in heads {
        let _ = writeln!(g.out, "{head}");
        g.body(name, ret)?;
        let _ = writeln!(g.out, "}}\n");
    }
    let _ = FUNCS;
    Ok(Program {
        text: g.out,
        has_unchecked: g.has_unchecked,
        args,
    })
}

const LIMITS: RunLimits = RunLimits {
    max_memory: 1 << 20,
    fuel: Some(100_000),
    max_depth: 64,
};

/// The property (see the module documentation). Returns whether the program verified.
pub fn check_program(p: &Program) -> bool {
    let module = poolopt::ir::parse(&p.text)
        .unwrap_or_else(|e| panic!("generated text does not parse: {e}\n{}", p.text));
    let verified = match poolopt::VerifiedModule::new(module) {
        Ok(m) => m,
        Err(errors) => {
            if std::env::var_os("POOLOPT_GRAMMAR_DEBUG").is_some() {
                eprintln!(
                    "refused: {:?}",
                    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
                );
            }
            return false;
        }
    };
    assert!(
        !p.has_unchecked,
        "the verifier accepted an unchecked operation in untrusted input:\n{}",
        p.text
    );
    let reference = match poolopt::interp::run(verified.module(), "main", &p.args, &LIMITS) {
        Ok(v) => Ok(v),
        Err(InterpError::Trap(t)) => Err(t.kind),
        Err(e) => panic!("interpreter error on verified input: {e}\n{}", p.text),
    };
    for level in [OptLevel::O0, OptLevel::O1, OptLevel::O2] {
        let session = Session::new(verified.clone())
            .optimize(&PassManager::for_level(level).verify_each(true))
            .unwrap_or_else(|e| panic!("{level:?}: {e}\n{}", p.text));
        for cl_opt in [ClOpt::None, ClOpt::Speed] {
            let compiled = session
                .compile_with(&JitOptions { cl_opt, fuel: true })
                .unwrap_or_else(|e| panic!("{level:?} {cl_opt}: {e}\n{}", p.text));
            let got = match compiled.run("main", &p.args, &LIMITS) {
                Ok(v) => Ok(v),
                Err(RunError::Trap(t)) => Err(t.kind),
                Err(e) => panic!("{level:?} {cl_opt}: {e}\n{}", p.text),
            };
            // Fuel counts blocks, which optimization changes: an out-of-fuel run on either
            // side says nothing.
            let fuel = |r: &std::result::Result<i64, TrapKind>| r == &Err(TrapKind::OutOfFuel);
            if !fuel(&reference) && !fuel(&got) {
                assert_eq!(got, reference, "{level:?} {cl_opt} on\n{}", p.text);
            }
        }
    }
    true
}
