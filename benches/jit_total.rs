//! JIT total: what an embedding compiler pays to run a workload from source — parse + verify +
//! the poolopt passes + Cranelift compilation + the run — per workload and level, at the test
//! sizes and at one reference size. Every iteration checks the result.

mod common;

use common::{small_cases, Case};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use poolopt::{parse_and_verify, ClOpt, OptLevel, PassManager, RunLimits, Session};
use std::hint::black_box;
use std::time::Duration;

const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];

/// Source text to result, the whole pipeline.
fn jit_total(case: &Case, level: OptLevel, cl_opt: ClOpt) -> i64 {
    let module = parse_and_verify(case.program.name, black_box(case.program.source))
        .unwrap_or_else(|d| panic!("{d}"));
    let session = Session::new(module)
        .optimize(
            &PassManager::for_level(level)
                .verify_each(false)
                .collect_remarks(false),
        )
        .expect("the passes succeed");
    let compiled = session.compile(cl_opt).expect("the module compiles");
    let result = compiled
        .run(
            &case.entry,
            &[black_box(case.n), black_box(case.rounds)],
            &RunLimits::default(),
        )
        .expect("the workload runs");
    assert_eq!(result, case.expected, "{} at {}", case.label, level.name());
    result
}

fn small_sizes(c: &mut Criterion) {
    let mut group = c.benchmark_group("jit_total/small");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for case in small_cases() {
        for level in LEVELS {
            group.bench_with_input(
                BenchmarkId::new(&case.label, level.name()),
                &case,
                |b, case| b.iter(|| jit_total(case, level, ClOpt::Speed)),
            );
        }
    }
    group.finish();
}

fn reference_size(c: &mut Criterion) {
    let case = common::reference_case("lifo_8");
    let mut group = c.benchmark_group("jit_total/reference");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        for level in LEVELS {
            group.bench_with_input(
                BenchmarkId::new(format!("{}/{cl_opt}", case.label), level.name()),
                &case,
                |b, case| b.iter(|| jit_total(case, level, cl_opt)),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, small_sizes, reference_size);
criterion_main!(benches);
