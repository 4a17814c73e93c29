//! Independent JIT modules compile and run on several threads at once, with correct results:
//! the workload programs at small sizes, each thread with its own module, level and Cranelift
//! level, all started together; the interpreter (run up front) is the oracle.

use poolopt::{
    parse_and_verify, ClOpt, JitOptions, OptLevel, PassManager, RunLimits, Session, VerifiedModule,
};
use std::sync::{Arc, Barrier};

const THREADS: usize = 6;

fn workload(size: u32) -> VerifiedModule {
    let rel = format!("examples/workloads/slot_pool_{size}.pir");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    let src = std::fs::read_to_string(path).unwrap();
    parse_and_verify(&rel, &src).unwrap_or_else(|d| panic!("{d}"))
}

/// (entry, args) at small sizes.
const RUNS: [(&str, [i64; 2]); 3] = [
    ("append", [100, 3]),
    ("lifo", [10, 5]),
    ("scattered", [10, 3]),
];

#[test]
fn independent_modules_compile_and_run_on_many_threads_at_once() {
    let modules = [workload(8), workload(128)];
    // The oracle, computed before the threads start.
    let expected: Vec<Vec<i64>> = modules
        .iter()
        .map(|m| {
            RUNS.iter()
                .map(|(entry, args)| {
                    poolopt::interp::run(m.module(), entry, args, &RunLimits::default()).unwrap()
                })
                .collect()
        })
        .collect();
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let module = modules[t % 2].clone();
            let expected = expected[t % 2].clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let level = [OptLevel::O0, OptLevel::O1, OptLevel::O2][t % 3];
                let cl_opt = [ClOpt::None, ClOpt::Speed][(t / 3) % 2];
                let session = Session::new(module)
                    .optimize(&PassManager::for_level(level))
                    .unwrap();
                barrier.wait();
                // Several rounds of compile + run + drop, so compilations overlap with runs
                // and with other threads' frees of code memory.
                for round in 0..3 {
                    let compiled = session
                        .compile_with(&JitOptions {
                            cl_opt,
                            fuel: round == 1,
                        })
                        .unwrap();
                    let limits = RunLimits {
                        fuel: (round == 1).then_some(u64::MAX / 2),
                        ..RunLimits::default()
                    };
                    for ((entry, args), want) in RUNS.iter().zip(&expected) {
                        let got = compiled.run(entry, args, &limits);
                        assert_eq!(got, Ok(*want), "thread {t} {level:?} {cl_opt} {entry}");
                        let (got, _) = compiled.run_on_current_thread(entry, args, &limits);
                        assert_eq!(got, Ok(*want), "thread {t} on its own thread");
                    }
                }
                (level, cl_opt)
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a JIT thread panicked");
    }
}

#[test]
fn a_compiled_module_can_move_to_another_thread() {
    // `CompiledModule` is `Send` (not `Sync`): compile on one thread, run on another.
    let module = workload(8);
    let want =
        poolopt::interp::run(module.module(), "lifo", &[10, 5], &RunLimits::default()).unwrap();
    let compiled = Session::new(module)
        .optimize_level(OptLevel::O2)
        .unwrap()
        .compile(ClOpt::Speed)
        .unwrap();
    let got = std::thread::spawn(move || compiled.run("lifo", &[10, 5], &RunLimits::default()))
        .join()
        .unwrap();
    assert_eq!(got, Ok(want));
}
