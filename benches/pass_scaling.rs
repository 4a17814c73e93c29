//! Scaling of the O2 pipeline with input size: generated modules of 1k, 10k, 100k and 1M
//! instructions in several shapes (all but `functions` a single function), built with the builder API like a front end would.
//!
//! - `straight`: vec-heavy straight-line code in one block, a fresh temporary for every value
//!   (len, push, checked get at the old length, copies, a guarded-by-nothing checked pop).
//! - `deep_cfg`: a chain of guarded pops (`if len(free) > 0 { pop } else { push }`), so the
//!   dominator tree is as deep as the chain is long; a fixed set of locals is reused.
//! - `range_checks`: a chain of short-circuit range checks, all foldable.
//! - `copies`: many copies of one bounded index, each used by an access.
//! - `guarded`: a chain of blocks, each a fresh temporary and a branch to a shared failure
//!   block (many blocks × many block-local locals).
//! - `stores`: one block of pushes, stores at constant indices and reads of them.
//! - `join`: a dispatch chain (`x == k`?) whose every arm assigns one local and jumps to one
//!   shared join block, as a front end lowers a `match` (a join of many predecessors: asking
//!   each arm whether the join had one predecessor, by counting all of them, made
//!   simplify-cfg quadratic).
//! - `functions`: many small functions (a quarter as many as the size), each calling one
//!   shared leaf, which the inliner copies into every one (the pipeline's per-function setup:
//!   a lookup of the function by name there made 100,000 functions take 9 s).
//! - `live_guards`, `aliased_vecs`, `kept_reads`: `benches/text/gen_shapes.py guarded`,
//!   `aliased` and `kept` (docs/benchmarks.md, "Issue 9, fourteenth session"): indices each
//!   tested in a block of its own and all read in a loop (the liveness sets are blocks ×
//!   locals: past the pass manager's bound the function is left as it is); copies of one vec
//!   pushed to and read in a loop (every push shifts every length: the fact analysis's work
//!   budget); one block of checked reads whose indices stay live (the cap on a fact set).
//!
//! The module is generated and verified once; each iteration optimizes a fresh clone (the
//! clone is outside the measurement). Targets: 1M instructions ≤ 2 s, time(1M)/time(100k) ≤ 12.
//!
//! Before a size is measured, one untimed-by-criterion probe run predicts its cost from the
//! growth between the two previous sizes; a size predicted (or probed) over the budget
//! (`POOLOPT_SCALING_BUDGET` seconds per run, default 20) is skipped with its probe figures on
//! stderr, so a super-linear pipeline shows up as a report instead of an hours-long bench.
//! `POOLOPT_SCALING_SHAPES=deep_cfg,straight` measures (and probes) only the shapes named.
//!
//! Exact counts, one per probe run (1k, 10k, 100k, 1M), with no criterion iteration (a name
//! filter that matches nothing; the budget lets the 1M probe run under callgrind's slowdown):
//!
//!     POOLOPT_SCALING_BUDGET=100000 POOLOPT_SCALING_SHAPES=deep_cfg valgrind --tool=callgrind \
//!         --toggle-collect='poolopt_passes::manager::PassManager::run' \
//!         --dump-after='poolopt_passes::manager::PassManager::run' \
//!         target/release/deps/pass_scaling-<hash> --bench nothing

use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use poolopt::ir::{BinaryOp, CmpOp, ElemType, Module, ModuleBuilder, ScalarType, Type};
use poolopt::{OptLevel, PassManager};
use poolopt_test_support::shapes;
use std::time::{Duration, Instant};

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// Instructions per generated unit of `straight` (terminators excluded).
const STRAIGHT_UNIT: usize = 11;
/// Instructions per generated unit of `deep_cfg` (terminators included).
const CFG_UNIT: usize = 11;

/// A function `straight(v: vec<i64>) -> i64` of about `insts` instructions in one block.
fn straight(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let vec_i64 = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let f = mb.declare_function("straight", &[("v", vec_i64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let v = fb.param(0).expect("one parameter");
    let acc = fb.local("acc", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.copy(acc, 0i64);
    let mut next = 0usize;
    let mut temp = |fb: &mut poolopt::ir::FunctionBuilder<'_>, ty: Type| {
        next += 1;
        fb.local(&format!("t{next}"), ty)
    };
    for k in 0..(insts / STRAIGHT_UNIT).max(1) {
        let old_len = temp(&mut fb, Type::I64);
        fb.vec_len(old_len, v);
        fb.push(v, k as i64);
        let got = temp(&mut fb, Type::I64);
        fb.get(got, v, old_len, None);
        let copied = temp(&mut fb, Type::I64);
        fb.copy(copied, got);
        let sum = temp(&mut fb, Type::I64);
        fb.binary(sum, BinaryOp::Add, acc, copied);
        fb.copy(acc, sum);
        let len = temp(&mut fb, Type::I64);
        fb.vec_len(len, v);
        let nonempty = temp(&mut fb, Type::BOOL);
        fb.compare(nonempty, CmpOp::Sgt, len, 0i64);
        let popped = temp(&mut fb, Type::I64);
        fb.pop(Some(popped), v);
        let sum2 = temp(&mut fb, Type::I64);
        fb.binary(sum2, BinaryOp::Add, acc, popped);
        fb.copy(acc, sum2);
    }
    fb.ret(Some(acc.into()));
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// Instructions per generated function of `functions` (terminators included).
const FUNCTION_UNIT: usize = 4;

/// A module of about `insts / 4` functions `f<k>(x: i64) -> i64 { t = add x, k; u = call
/// leaf(t); ret u }` and the leaf `leaf(x: i64) -> i64 { y = mul x, 3; ret y }`.
fn functions(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let leaf = mb.declare_function("leaf", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(leaf);
    let x = fb.param(0).expect("one parameter");
    let y = fb.local("y", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.binary(y, BinaryOp::Mul, x, 3i64);
    fb.ret(Some(y.into()));
    for k in 0..(insts / FUNCTION_UNIT).max(1) {
        let f = mb.declare_function(&format!("f{k}"), &[("x", Type::I64)], Some(Type::I64));
        let mut fb = mb.define_function(f);
        let x = fb.param(0).expect("one parameter");
        let t = fb.local("t", Type::I64);
        let u = fb.local("u", Type::I64);
        let entry = fb.create_block("entry");
        fb.switch_to_block(entry);
        fb.binary(t, BinaryOp::Add, x, k as i64);
        fb.call(Some(u), leaf, vec![t.into()]);
        fb.ret(Some(u.into()));
    }
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// A function `deep_cfg(free: vec<i64>) -> i64`: a chain of about `insts / 11` guarded pops.
fn deep_cfg(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let vec_i64 = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let f = mb.declare_function("deep_cfg", &[("free", vec_i64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let free = fb.param(0).expect("one parameter");
    let acc = fb.local("acc", Type::I64);
    let len = fb.local("len", Type::I64);
    let nonempty = fb.local("nonempty", Type::BOOL);
    let popped = fb.local("popped", Type::I64);
    let sum = fb.local("sum", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.copy(acc, 0i64);
    let units = (insts / CFG_UNIT).max(1);
    let mut head = fb.create_block("head0");
    fb.br(head);
    for k in 0..units {
        let pop_b = fb.create_block(&format!("pop{k}"));
        let push_b = fb.create_block(&format!("push{k}"));
        let next = fb.create_block(&format!("head{}", k + 1));
        fb.switch_to_block(head);
        fb.binary(sum, BinaryOp::Add, acc, 1i64);
        fb.copy(acc, sum);
        fb.vec_len(len, free);
        fb.compare(nonempty, CmpOp::Sgt, len, 0i64);
        fb.brif(nonempty, pop_b, push_b);
        fb.switch_to_block(pop_b);
        fb.pop(Some(popped), free);
        fb.binary(sum, BinaryOp::Add, acc, popped);
        fb.copy(acc, sum);
        fb.br(next);
        fb.switch_to_block(push_b);
        fb.push(free, k as i64);
        fb.br(next);
        head = next;
    }
    fb.switch_to_block(head);
    fb.ret(Some(acc.into()));
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// Instructions per range check of `range_checks` (terminators included).
const RANGE_CHECK_UNIT: usize = 11;

/// A function `range_checks(x: i64) -> i64`: a chain of short-circuit range checks
/// `i < 0 || i >= len(v)` with `i = x & 3`, each followed by `v[i]` and a push. Every one
/// folds; range-check-fold once needed one fact analysis per fold (quadratic: 2,000 checks
/// took 22 s).
fn range_checks(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("range_checks", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).expect("one parameter");
    let v = fb.local("v", Type::Vec(ElemType::Scalar(ScalarType::I64)));
    let (i, n, t) = (
        fb.local("i", Type::I64),
        fb.local("n", Type::I64),
        fb.local("t", Type::I64),
    );
    let c = fb.local("c", Type::BOOL);
    let entry = fb.create_block("entry");
    let bad = fb.create_block("bad");
    fb.switch_to_block(entry);
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
    fb.copy(t, 0i64);
    let mut head = fb.create_block("check0");
    fb.br(head);
    for k in 0..(insts / RANGE_CHECK_UNIT).max(1) {
        let upper = fb.create_block(&format!("upper{k}"));
        let ok = fb.create_block(&format!("ok{k}"));
        let next = fb.create_block(&format!("check{}", k + 1));
        fb.switch_to_block(head);
        fb.push(v, k as i64);
        fb.binary(i, BinaryOp::And, x, 3i64);
        fb.vec_len(n, v);
        fb.compare(c, CmpOp::Slt, i, 0i64);
        fb.brif(c, bad, upper);
        fb.switch_to_block(upper);
        fb.compare(c, CmpOp::Sge, i, n);
        fb.brif(c, bad, ok);
        fb.switch_to_block(ok);
        fb.get(t, v, i, None);
        fb.br(next);
        head = next;
    }
    fb.switch_to_block(head);
    fb.ret(Some(t.into()));
    fb.switch_to_block(bad);
    fb.trap("index out of range");
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// Instructions per copy of `copies` (the copy and its access).
const COPY_UNIT: usize = 3;

/// A function `copies(x: i64) -> i64`: `i0 = x & 7`, then `ik = copy i0` for many `k` (what
/// value numbering makes of equal masks), then `v[ik]` for each. The fact analysis once
/// related every copy to every other one (quadratic sets: 1,000 copies took minutes).
fn copies(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("copies", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).expect("one parameter");
    let v = fb.local("v", Type::Vec(ElemType::Scalar(ScalarType::I64)));
    let (acc, t) = (fb.local("acc", Type::I64), fb.local("t", Type::I64));
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
    for k in 0..8i64 {
        fb.push(v, k);
    }
    let units = (insts / COPY_UNIT).max(1);
    let first = fb.local("i0", Type::I64);
    fb.binary(first, BinaryOp::And, x, 7i64);
    let mut indices = vec![first];
    for k in 1..units {
        let ik = fb.local(&format!("i{k}"), Type::I64);
        fb.copy(ik, first);
        indices.push(ik);
    }
    fb.copy(acc, 0i64);
    for ik in indices {
        fb.get(t, v, ik, None);
        fb.binary(acc, BinaryOp::Add, acc, t);
    }
    fb.ret(Some(acc.into()));
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// A function `guarded(a: i64) -> i64`: a chain of about `insts / 3` blocks, each computing a
/// fresh temporary and branching on it to one shared failure block (a front end's check per
/// access, one temporary per subexpression): many blocks and many block-local locals, which
/// made liveness (blocks × locals bits) and the extended-block walk (a state copied per block)
/// quadratic.
fn guarded(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("guarded", &[("a", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let a = fb.param(0).expect("one parameter");
    let entry = fb.create_block("entry");
    let bad = fb.create_block("bad");
    fb.switch_to_block(bad);
    fb.ret(Some(0i64.into()));
    fb.switch_to_block(entry);
    for k in 0..(insts / 3).max(1) {
        let t = fb.local(&format!("t{k}"), Type::I64);
        let c = fb.local(&format!("c{k}"), Type::BOOL);
        fb.binary(t, BinaryOp::Add, a, k as i64);
        fb.compare(c, CmpOp::Slt, t, 0i64);
        let next = fb.create_block(&format!("b{k}"));
        fb.brif(c, bad, next);
        fb.switch_to_block(next);
    }
    fb.ret(Some(a.into()));
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// A function `stores(v: vec<i64>) -> i64` of one block: `insts / 4` pushes, then as many
/// stores at constant indices, then as many reads of them (store-load-forward kept every store
/// available: quadratic).
fn stores(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let vec_i64 = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let f = mb.declare_function("stores", &[("v", vec_i64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let v = fb.param(0).expect("one parameter");
    let acc = fb.local("acc", Type::I64);
    let t = fb.local("t", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.copy(acc, 0i64);
    let n = (insts / 4).max(1) as i64;
    for k in 0..n {
        fb.push(v, k);
    }
    for k in 0..n {
        fb.set(v, k, None, k + 1);
    }
    for k in 0..n {
        fb.get(t, v, k, None);
        fb.binary(acc, BinaryOp::Add, acc, t);
    }
    fb.ret(Some(acc.into()));
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// A function `join(x: i64) -> i64`: a chain of about `insts / 3` tests of `x == k`, each
/// arm assigning `k` to one local and jumping to one shared join that returns it.
fn join(insts: usize) -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("join", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).expect("one parameter");
    let r = fb.local("r", Type::I64);
    let c = fb.local("c", Type::BOOL);
    let entry = fb.create_block("entry");
    let done = fb.create_block("done");
    fb.switch_to_block(done);
    fb.ret(Some(r.into()));
    fb.switch_to_block(entry);
    for k in 0..(insts / 3).max(1) as i64 {
        let arm = fb.create_block(&format!("a{k}"));
        let next = fb.create_block(&format!("s{k}"));
        fb.compare(c, CmpOp::Eq, x, k);
        fb.brif(c, arm, next);
        fb.switch_to_block(arm);
        fb.copy(r, k);
        fb.br(done);
        fb.switch_to_block(next);
    }
    fb.copy(r, -1i64);
    fb.br(done);
    mb.finish()
        .expect("the generator uses the builder correctly")
}

/// Makes a module whose one function has about the given number of instructions.
type Generator = fn(usize) -> Module;

/// The module of a generated text (the three shapes below mirror `gen_shapes.py`; two of them
/// come from `poolopt_test_support::shapes`, which the fact-limit tests share).
fn parsed(text: &str) -> Module {
    poolopt::ir::parse(text).expect("the generated text parses")
}

/// `live_guards(m)`: `insts / 5` indices, each computed and tested in a block of its own, then
/// all of them read in a loop.
fn live_guards(insts: usize) -> Module {
    let n = (insts / 5).max(1);
    let mut s = String::from("fn live_guards(m: i64) -> i64 {\n    var v: vec<i64>\n    var j: i64\n    var s: i64\n    var x: i64\n    var c: bool\n");
    for k in 0..n {
        s += &format!("    var i{k}: i64\n    var c{k}: bool\n");
    }
    s += "entry:\n    v = new vec<i64>\n    push v, 1\n    s = copy 0\n    j = copy 0\n    br g\n";
    s += "g:\n";
    for k in 0..n {
        s += &format!(
            "    i{k} = srem m, {}\n    c{k} = sge i{k}, 0\n    brif c{k}, g{k}, bad\ng{k}:\n",
            k + 2
        );
    }
    s += "    br head\nhead:\n    c = slt j, m\n    brif c, body, done\nbody:\n";
    for k in 0..n {
        s += &format!("    x = get v[i{k}]\n    s = add s, x\n");
    }
    s += "    j = add j, 1\n    br head\ndone:\n    ret s\nbad:\n    ret 0\n}\n";
    parsed(&s)
}

/// `aliased_vecs(w, m)`: `insts / 4` copies of the vec `w`, each pushed to and read in a loop.
fn aliased_vecs(insts: usize) -> Module {
    parsed(&shapes::aliased_vecs((insts / 4).max(1)))
}

/// `kept_reads(m)`: one block of `insts / 5` checked reads of distinct indices, all read
/// again in the next block.
fn kept_reads(insts: usize) -> Module {
    parsed(&shapes::kept_reads((insts / 5).max(1)))
}

/// Seconds one pipeline run may take before larger sizes are skipped.
fn budget() -> f64 {
    std::env::var("POOLOPT_SCALING_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20.0)
}

/// Whether shape `shape` is measured: all of them unless `POOLOPT_SCALING_SHAPES` names some
/// (comma-separated). The probe runs happen before criterion's name filter applies, so without
/// it a run for one shape still probes every other shape at every size (minutes under
/// callgrind).
fn selected(shape: &str) -> bool {
    match std::env::var("POOLOPT_SCALING_SHAPES") {
        Ok(list) => list.split(',').any(|s| s.trim() == shape),
        Err(_) => true,
    }
}

/// One run of `manager` on a clone of `module`, in seconds.
fn probe(manager: &PassManager, module: &Module) -> f64 {
    let mut m = module.clone();
    let start = Instant::now();
    manager.run(&mut m).expect("the O2 pipeline succeeds");
    start.elapsed().as_secs_f64()
}

fn scaling(c: &mut Criterion) {
    let shapes: [(&str, Generator); 11] = [
        ("straight", straight),
        ("deep_cfg", deep_cfg),
        ("range_checks", range_checks),
        ("copies", copies),
        ("guarded", guarded),
        ("stores", stores),
        ("join", join),
        ("functions", functions),
        ("live_guards", live_guards),
        ("aliased_vecs", aliased_vecs),
        ("kept_reads", kept_reads),
    ];
    let manager = PassManager::for_level(OptLevel::O2)
        .verify_each(false)
        .collect_remarks(false);
    for (shape, generate) in shapes.into_iter().filter(|(shape, _)| selected(shape)) {
        let mut group = c.benchmark_group(format!("pass_scaling/{shape}"));
        group.sampling_mode(SamplingMode::Flat);
        let mut probes: Vec<f64> = Vec::new();
        for insts in SIZES {
            if let [.., a, b] = probes[..] {
                let predicted = b * (b / a).max(10.0);
                if predicted > budget() {
                    eprintln!(
                        "pass_scaling/{shape}/{insts}: skipped; previous sizes took {a:.4} s and \
                         {b:.4} s per run, predicting {predicted:.0} s (budget {} s)",
                        budget()
                    );
                    break;
                }
            }
            let module = generate(insts);
            if let Err(errors) = poolopt::ir::verify(&module) {
                panic!("generated {shape} module does not verify: {errors:?}");
            }
            let probed = probe(&manager, &module);
            eprintln!("pass_scaling/{shape}/{insts}: probe run {probed:.4} s");
            probes.push(probed);
            if probed > budget() {
                eprintln!("pass_scaling/{shape}/{insts}: skipped; over the budget");
                break;
            }
            if insts >= 100_000 {
                group
                    .sample_size(10)
                    .warm_up_time(Duration::from_millis(100))
                    .measurement_time(Duration::from_secs(1));
            } else {
                group
                    .sample_size(20)
                    .warm_up_time(Duration::from_millis(300))
                    .measurement_time(Duration::from_secs(1));
            }
            group.throughput(Throughput::Elements(insts as u64));
            group.bench_with_input(BenchmarkId::from_parameter(insts), &module, |b, module| {
                b.iter_batched(
                    || module.clone(),
                    |mut m| manager.run(&mut m).expect("the O2 pipeline succeeds"),
                    BatchSize::LargeInput,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, scaling);
criterion_main!(benches);
