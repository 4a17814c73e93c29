//! The huge tier (`tier.rs`: locals in stack slots, Cranelift `opt_level=none`, single-pass
//! register allocation) on ordinary programs, in every `cargo test`: this test binary sets
//! `POOLOPT_HUGE_FUNCTION_INSTS=0` before anything reads it (the threshold is read once per
//! process, and each integration test file is a process of its own, with this one test), so
//! every function is compiled in the huge tier, and compares each run with the interpreter.
//! Functions of 20,000 instructions are too slow to build in a unit test; without this binary
//! the tier ran only in the documented by-hand differential run.

mod common;

use common::compile_both;
use poolopt_ir::{parse, Module, RunLimits};
use poolopt_jit::tier::{huge_threshold, Tier, HUGE_THRESHOLD_ENV, MAX_BLOCK_LOCAL_SPAN};
use poolopt_jit::RunError;

fn module(src: &str) -> Module {
    let m = parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
    poolopt_ir::verify(&m).unwrap_or_else(|e| panic!("verify: {e:?}"));
    m
}

/// Runs `entry(args)` in the interpreter and, at both Cranelift levels, in the JIT; asserts
/// the JIT gives the same value or trap kind.
fn agree(m: &Module, entry: &str, args: &[i64]) {
    let limits = RunLimits::default();
    let oracle = poolopt_interp::run(m, entry, args, &limits)
        .map_err(|e| e.as_trap().map(|t| t.kind).expect("a trap, not an error"));
    for c in compile_both(m, true) {
        let got = c.run(entry, args, &limits).map_err(|e| match e {
            RunError::Trap(t) => t.kind,
            e => panic!("JIT error on {entry}{args:?}: {e}"),
        });
        assert_eq!(got, oracle, "{entry}{args:?}");
    }
}

/// Many locals live at once (each its own stack slot), a loop, a struct copied whole and
/// packed, and a trap.
const LOCALS: &str = "
struct P { a: i32, b: i32 }
struct Q { a: i64, b: i64, c: i64, d: i64, e: i64 }

fn many(x: i64, y: i64) -> i64 {
    var a: i64
    var b: i64
    var c: i64
    var d: i64
    var e: i64
    var i: i64
    var t: bool
    var v: vec<i64>
    var w: vec<Q>
    var p: P
    var q: Q
    var r: Q
    var k: i32
entry:
    a = add x, 1
    b = mul y, 3
    c = sub a, b
    d = xor a, c
    e = add d, b
    v = new vec<i64>
    w = new vec<Q>
    i = copy 0
    br head
head:
    t = slt i, 5
    brif t, body, done
body:
    push v, i
    i = add i, 1
    br head
done:
    p = make P(7, 9)
    k = getfield p.b
    q = make Q(a, b, c, d, e)
    push w, q
    r = get w[0]
    e = getfield r.e
    a = pop v
    a = add a, e
    b = sext k
    a = add a, b
    b = get v[y]
    a = add a, b
    ret a
}
";

#[test]
fn every_function_in_the_huge_tier_agrees_with_the_interpreter() {
    // The only test of this binary, so nothing has read the threshold yet.
    std::env::set_var(HUGE_THRESHOLD_ENV, "0");
    assert_eq!(huge_threshold(), 0);
    let locals = module(LOCALS);
    for f in locals.funcs.values() {
        assert_eq!(
            Tier::of(f),
            Tier::Huge,
            "{} is compiled in the huge tier",
            f.name
        );
    }
    // Every branch between two of the function's own blocks names the block that comes later
    // in the IR layout first (Cranelift lays out a branch's first successor's subtree last, so
    // this keeps the layout's order for the single-pass allocator). Cranelift numbers the IR
    // blocks in layout order (block0 ..), before the start block and the trap blocks.
    let clif = poolopt_jit::emit_clif(&locals, poolopt_jit::ClOpt::None).expect("emits");
    let ir_blocks = locals
        .funcs
        .values()
        .next()
        .expect("one function")
        .layout
        .len() as u32;
    let block = |name: &str| -> Option<u32> {
        let n: u32 = name
            .trim_end_matches(',')
            .strip_prefix("block")?
            .parse()
            .ok()?;
        (n < ir_blocks).then_some(n)
    };
    let own_branches: Vec<(u32, u32)> = clif
        .lines()
        .filter_map(|l| {
            let mut words = l.trim().strip_prefix("brif ")?.split_whitespace().skip(1);
            Some((block(words.next()?)?, block(words.next()?)?))
        })
        .collect();
    assert!(
        !own_branches.is_empty(),
        "no branch between IR blocks:\n{clif}"
    );
    for (first, second) in own_branches {
        assert!(
            first > second,
            "block{first} is named before the later block{second}:\n{clif}"
        );
    }
    for args in [[1, 2], [5, 0], [-3, 3], [0, 4], [0, 5], [0, -1]] {
        agree(&locals, "many", &args);
    }
    let workloads = module(include_str!("../../../examples/workloads/slot_pool_8.pir"));
    for (entry, args) in [
        ("lifo", [10, 5]),
        ("append", [20, 3]),
        ("scattered", [10, 3]),
    ] {
        agree(&workloads, entry, &args);
    }
    // A value of a local in the slot is reused within its block for at most
    // `MAX_BLOCK_LOCAL_SPAN` instructions, then loaded again, so that few values stay live
    // across the block's checks (each ends a Cranelift block, where the single-pass allocator
    // visits every live value). `far(k)` reads its parameter at 0 and at `k`.
    let loads = |k: u32| {
        let m = module(&far_read(k));
        agree(&m, "far", &[5]);
        let clif = poolopt_jit::emit_clif(&m, poolopt_jit::ClOpt::None).expect("emits");
        clif.matches("= load.").count()
    };
    assert_eq!(
        loads(MAX_BLOCK_LOCAL_SPAN + 1),
        loads(MAX_BLOCK_LOCAL_SPAN) + 1
    );
}

/// `far(p)`: reads `p` at instruction 0 and at instruction `k` of one block, with only
/// another local's additions between; returns `2 p + k`.
fn far_read(k: u32) -> String {
    let mut s = String::from("fn far(p: i64) -> i64 {\n    var s: i64\nentry:\n    s = add p, 1\n");
    for _ in 1..k {
        s += "    s = add s, 1\n";
    }
    s + "    s = add s, p\n    ret s\n}\n"
}
