//! Compile-time cost on the workload programs, per level: the poolopt passes alone, and the
//! passes plus Cranelift compilation (under both Cranelift levels). Parsing is outside the
//! measurement; each iteration starts from a fresh copy of the verified module.

mod common;

use common::{load, PROGRAMS};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use poolopt::{ClOpt, OptLevel, PassManager, Session};
use std::time::Duration;

const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];

fn passes(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile/passes");
    group.measurement_time(Duration::from_secs(2));
    for program in &PROGRAMS {
        let module = load(program);
        for level in LEVELS {
            let manager = PassManager::for_level(level)
                .verify_each(false)
                .collect_remarks(false);
            group.bench_function(BenchmarkId::new(program.name, level.name()), |b| {
                b.iter_batched(
                    || Session::new(module.clone()),
                    |session| session.optimize(&manager).expect("the passes succeed"),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    group.finish();
}

fn passes_and_cranelift(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile/passes+cranelift");
    group.measurement_time(Duration::from_secs(3));
    for program in &PROGRAMS {
        let module = load(program);
        for cl_opt in [ClOpt::None, ClOpt::Speed] {
            for level in LEVELS {
                let manager = PassManager::for_level(level)
                    .verify_each(false)
                    .collect_remarks(false);
                group.bench_function(
                    BenchmarkId::new(format!("{}/{cl_opt}", program.name), level.name()),
                    |b| {
                        b.iter_batched(
                            || Session::new(module.clone()),
                            |session| {
                                let session =
                                    session.optimize(&manager).expect("the passes succeed");
                                session.compile(cl_opt).expect("the module compiles")
                            },
                            BatchSize::SmallInput,
                        )
                    },
                );
            }
        }
    }
    group.finish();
}

criterion_group!(benches, passes, passes_and_cranelift);
criterion_main!(benches);
