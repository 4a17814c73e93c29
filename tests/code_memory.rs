//! Compiling and dropping many small modules in one process keeps memory flat: a
//! `CompiledModule` frees its code memory (and a run its vecs) when dropped.
//!
//! 10,000 modules take about 15 s in a debug build, so the test runs by default.

use poolopt::ir::{BinaryOp, ElemType, ModuleBuilder, ScalarType, Type};
use poolopt::{ClOpt, CompiledModule, JitOptions, RunLimits};

/// Resident set size in bytes, from /proc/self/statm.
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// A small module: `main(x) = x * k + len(v)` after pushing `k` elements, `k` varying so that
/// no two modules are the same.
fn small_module(k: i64) -> poolopt::Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("main", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).unwrap();
    let v = fb.local("v", Type::Vec(ElemType::Scalar(ScalarType::I64)));
    let n = fb.local("n", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
    for i in 0..(k % 7) {
        fb.push(v, i);
    }
    fb.vec_len(n, v);
    fb.binary(x, BinaryOp::Mul, x, k);
    fb.binary(x, BinaryOp::Add, x, n);
    fb.ret(Some(x.into()));
    mb.finish().unwrap()
}

fn compile_and_drop(count: i64, offset: i64) {
    for k in offset..offset + count {
        let module = small_module(k);
        let cl_opt = if k % 2 == 0 {
            ClOpt::None
        } else {
            ClOpt::Speed
        };
        let compiled = CompiledModule::compile(
            &module,
            &JitOptions {
                cl_opt,
                fuel: false,
            },
        )
        .unwrap();
        let (got, _) = compiled.run_on_current_thread("main", &[3], &RunLimits::default());
        assert_eq!(got, Ok(3 * k + k % 7));
    }
}

/// Compiles `count` modules after a warm-up and asserts the resident set grew by less than
/// `budget` bytes. A leak of even one page of code per module would exceed it.
fn stays_flat(count: i64, budget: u64) {
    compile_and_drop(200, 0);
    let before = rss();
    compile_and_drop(count, 200);
    let after = rss();
    let growth = after.saturating_sub(before);
    eprintln!(
        "{count} modules: RSS {} KiB -> {} KiB (+{} KiB)",
        before / 1024,
        after / 1024,
        growth / 1024
    );
    assert!(
        growth < budget,
        "RSS grew by {growth} bytes over {count} compiled and dropped modules"
    );
}

#[test]
fn compiling_and_dropping_10000_modules_keeps_memory_flat() {
    // A leaked page per module would be 40,000 KiB.
    stays_flat(10_000, 4 << 20);
}
