//! Every trap example traps with its kind in the interpreter and in the JIT at every level;
//! a host survives 1,000 trapping runs with flat memory.

mod common;

use common::*;
use poolopt::{ClOpt, OptLevel, RunError, RunLimits};

fn limits_for(name: &str) -> RunLimits {
    if name == "out_of_memory" {
        RunLimits {
            max_memory: 1 << 20,
            ..RunLimits::default()
        }
    } else {
        RunLimits::default()
    }
}

#[test]
fn every_trap_example_traps_the_same_everywhere() {
    let files = pir_files(&["examples/traps"]);
    assert_eq!(files.len(), 6);
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let module = load(&rel(&path));
        let got = run_everywhere(&module, "main", &[], &limits_for(&name));
        assert_eq!(got, Outcome::Trap(name.clone()), "{name}");
    }
}

/// Resident set size in bytes, from /proc (Linux).
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[test]
fn thousand_trapping_runs_leave_memory_flat() {
    // Each run allocates ~1 MiB of vec memory and then traps; none of it may survive the run.
    let module = load("examples/traps/out_of_memory.pir");
    let compiled = optimize(&module, OptLevel::O2)
        .compile(ClOpt::Speed)
        .unwrap();
    let limits = RunLimits {
        max_memory: 1 << 20,
        ..RunLimits::default()
    };
    let run = || match compiled.run("main", &[], &limits) {
        Err(RunError::Trap(t)) => assert_eq!(t.kind.name(), "out_of_memory"),
        other => panic!("expected a trap, got {other:?}"),
    };
    for _ in 0..50 {
        run();
    }
    let before = rss_bytes();
    for _ in 0..1000 {
        run();
    }
    let after = rss_bytes();
    if let (Some(before), Some(after)) = (before, after) {
        // 1,000 leaked runs would be ~1 GiB; allow 16 MiB of allocator noise.
        assert!(
            after < before + (16 << 20),
            "RSS grew from {before} to {after} bytes"
        );
    }
}
