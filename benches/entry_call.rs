//! Per-call overhead of calling JIT code from the host: `lifo(1, 1)` of the 8-byte slot pool
//! (compiled once at O2 + `speed`) called through a typed entry (on the calling thread), through
//! `CompiledModule::run_on_current_thread`, and through `CompiledModule::run` (a thread per
//! call). Every call's result is checked against the interpreter's.

mod common;

use common::PROGRAMS;
use criterion::{criterion_group, criterion_main, Criterion};
use poolopt::{parse_and_verify, ClOpt, OptLevel, RunLimits, Session};
use std::hint::black_box;
use std::time::Duration;

fn entry_call(c: &mut Criterion) {
    let program = &PROGRAMS[0];
    let module = parse_and_verify(program.name, program.source).unwrap_or_else(|d| panic!("{d}"));
    let session = Session::new(module)
        .optimize_level(OptLevel::O2)
        .expect("the passes succeed");
    let limits = RunLimits::default();
    let expected = session
        .interpret("lifo", &[1, 1], &limits)
        .expect("lifo(1, 1) runs in the interpreter");
    let compiled = session.compile(ClOpt::Speed).expect("the module compiles");
    let lifo = compiled
        .entry::<(i64, i64), i64>("lifo")
        .expect("lifo is fn(i64, i64) -> i64");

    let mut group = c.benchmark_group("entry_call/lifo(1,1)");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("typed_entry", |b| {
        b.iter(|| {
            let r = lifo.call((black_box(1), black_box(1))).expect("no trap");
            assert_eq!(r, expected);
        })
    });
    group.bench_function("run_on_current_thread", |b| {
        b.iter(|| {
            let (r, _) = compiled.run_on_current_thread("lifo", &[black_box(1), 1], &limits);
            assert_eq!(r, Ok(expected));
        })
    });
    group.bench_function("run_thread_per_call", |b| {
        b.iter(|| {
            let r = compiled.run("lifo", &[black_box(1), 1], &limits);
            assert_eq!(r, Ok(expected));
        })
    });
    group.finish();
}

criterion_group!(benches, entry_call);
criterion_main!(benches);
