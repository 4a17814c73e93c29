//! Which tier the JIT compiles a function in (`crates/jit/src/tier.rs`): a function under the
//! size threshold whose loops nest too deep goes to the huge tier (locals in stack slots,
//! single-pass register allocation), because the normal tier's SSA construction and register
//! allocation grow with the cube of the nesting (a nest 1,600 deep took 5.9 s to compile),
//! and so does one with too many locals crossing too many blocks (2,000 vecs tested in turn:
//! 6.7 s and 1 GB); a shallow or narrow one stays in the normal tier. Results are the
//! interpreter's either way.

use poolopt::ir::{parse, verify, RunLimits};
use poolopt::jit::tier::{Tier, MAX_CROSSING, MAX_LOOP_DEPTH_SUM};
use poolopt::jit::{ClOpt, CompiledModule, JitOptions};
use poolopt_test_support::{loop_nest, many_vecs};

/// Compiles the one-function program `src` at both Cranelift levels; asserts that `entry`
/// is compiled in `tier`, and that `entry(7)` gives `want` there and in the interpreter.
fn assert_tier_and_result(src: &str, entry: &str, tier: Tier, want: i64, what: &str) {
    let module = parse(src).expect("parses");
    verify(&module).expect("verifies");
    let func = module.funcs.values().next().unwrap();
    assert!(
        func.inst_count() < 20_000,
        "{what}: under the size threshold"
    );
    let interpreted = poolopt::interp::run(&module, entry, &[7], &RunLimits::default());
    assert_eq!(interpreted.ok(), Some(want), "{what}: interpreter");
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        let options = JitOptions {
            cl_opt,
            fuel: false,
        };
        let compiled = CompiledModule::compile(&module, &options).expect("compiles");
        assert_eq!(compiled.tier_of(entry), Some(tier), "{what}");
        let got = compiled.run(entry, &[7], &RunLimits::default());
        assert_eq!(got.ok(), Some(want), "{what}: JIT at {cl_opt}");
    }
}

#[test]
fn deep_loop_nests_compile_in_the_huge_tier_with_the_same_results() {
    // A nest's depths add up to about 1.5 d² (three blocks a level): 100 levels stay under
    // the bound, 300 exceed it.
    const { assert!(15_000 < MAX_LOOP_DEPTH_SUM && MAX_LOOP_DEPTH_SUM < 135_000) };
    for (depth, tier) in [(3, Tier::Normal), (100, Tier::Normal), (300, Tier::Huge)] {
        let want = 7 + depth as i64;
        assert_tier_and_result(
            &loop_nest(depth),
            "nest",
            tier,
            want,
            &format!("depth {depth}"),
        );
    }
}

/// `vecs(k)` of `many_vecs(n)`: `n` vecs cross from the entry to their tests, `n + 2` locals
/// across `2n + 2` blocks; 400 vecs stay under [`MAX_CROSSING`], 1,000 exceed it.
#[test]
fn functions_with_many_crossing_locals_compile_in_the_huge_tier_with_the_same_results() {
    const { assert!(402 * 802 < MAX_CROSSING && MAX_CROSSING < 1_002 * 2_002) };
    for (n, tier) in [(3, Tier::Normal), (400, Tier::Normal), (1_000, Tier::Huge)] {
        let want = 7 * n as i64;
        assert_tier_and_result(&many_vecs(n), "vecs", tier, want, &format!("{n} vecs"));
    }
}
