//! Which tier the JIT compiles a function in (`crates/jit/src/tier.rs`): a function under the
//! size threshold whose loops nest too deep goes to the huge tier (locals in stack slots,
//! single-pass register allocation), because the normal tier's SSA construction and register
//! allocation grow with the cube of the nesting (a nest 1,600 deep took 5.9 s to compile),
//! and so does one with too many locals crossing too many blocks (2,000 vecs tested in turn:
//! 6.7 s and 1 GB); a shallow or narrow one stays in the normal tier. So does a function of
//! many parameters or with a call of many arguments (all live at once in their ABI places:
//! 4,000 of them took 0.3 s, 16,000 3 s), and one with too many values live at once for too
//! long (8,000 loaded values summed after all the loads: 5.2 s). Results are the
//! interpreter's either way.

use poolopt::ir::{parse, verify, Module, RunLimits};
use poolopt::jit::param_chains::MAX_PARAM_CHAIN;
use poolopt::jit::tier::{Tier, MAX_CROSSING, MAX_LIVE_AREA, MAX_LOOP_DEPTH_SUM, MAX_NORMAL_ARGS};
use poolopt::jit::{ClOpt, CompiledModule, JitOptions};
use poolopt_test_support::{loop_nest, many_loaded_values, many_vecs};

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
    at_both_levels(&module, |cl_opt, compiled| {
        assert_eq!(compiled.tier_of(entry), Some(tier), "{what}");
        let got = compiled.run(entry, &[7], &RunLimits::default());
        assert_eq!(got.ok(), Some(want), "{what}: JIT at {cl_opt}");
    });
}

/// Compiles `module` at both Cranelift levels and hands each compilation to `check`.
fn at_both_levels(module: &Module, mut check: impl FnMut(ClOpt, &CompiledModule)) {
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        let options = JitOptions {
            cl_opt,
            fuel: false,
        };
        let compiled = CompiledModule::compile(module, &options).expect("compiles");
        check(cl_opt, &compiled);
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
/// across `2n + 2` blocks; 400 vecs stay under [`MAX_CROSSING`], 800 exceed it (and stay
/// under [`MAX_LIVE_AREA`], which 1,000 exceed too: 800 is the size only this bound catches,
/// 1.13 s of compile without it).
#[test]
fn functions_with_many_crossing_locals_compile_in_the_huge_tier_with_the_same_results() {
    const { assert!(402 * 802 < MAX_CROSSING && MAX_CROSSING < 802 * 1_602) };
    for (n, tier) in [(3, Tier::Normal), (400, Tier::Normal), (800, Tier::Huge)] {
        let want = 7 * n as i64;
        assert_tier_and_result(&many_vecs(n), "vecs", tier, want, &format!("{n} vecs"));
    }
}

/// `loaded(7)` of `many_loaded_values(n, split)`: `n` values live at once, from their loads
/// to their sums, a live area of about `n²` (`n` instructions each); 1,000 stay under
/// [`MAX_LIVE_AREA`], 2,500 exceed it, whether the sums are in the loads' block (no local
/// crosses a block: [`MAX_CROSSING`] sees nothing) or in the next one (one block crossed).
#[test]
fn functions_with_many_values_live_at_once_compile_in_the_huge_tier_with_the_same_results() {
    const { assert!(1_010_000 < MAX_LIVE_AREA && MAX_LIVE_AREA < 2_500 * 2_500) };
    for split in [false, true] {
        for (n, tier) in [
            (3, Tier::Normal),
            (1_000, Tier::Normal),
            (2_500, Tier::Huge),
        ] {
            let want = 7 + (n * (n - 1) / 2) as i64;
            let what = format!("{n} values, sums in the next block: {split}");
            assert_tier_and_result(&many_loaded_values(n, split), "loaded", tier, want, &what);
        }
    }
}

/// `wide(x)` calls `callee` with `n` arguments (`x` and constants); `callee` returns
/// `sum((k + 1) * p_k)`.
fn many_args(n: usize) -> String {
    let params: Vec<String> = (0..n).map(|k| format!("p{k}: i64")).collect();
    let mut src = format!(
        "fn callee({}) -> i64 {{\n    var acc: i64\n    var t: i64\nentry:\n    acc = copy 0\n",
        params.join(", ")
    );
    for k in 0..n {
        src += &format!("    t = mul p{k}, {}\n    acc = add acc, t\n", k + 1);
    }
    src += "    ret acc\n}\n";
    let args: Vec<String> = (0..n)
        .map(|k| {
            if k % 2 == 0 {
                "x".to_string()
            } else {
                k.to_string()
            }
        })
        .collect();
    src += &format!(
        "fn wide(x: i64) -> i64 {{\n    var r: i64\nentry:\n    r = call callee({})\n    ret r\n}}\n",
        args.join(", ")
    );
    src
}

/// A function of more than [`MAX_NORMAL_ARGS`] parameters, and one calling it with as many
/// arguments, compile in the huge tier; at the bound both stay normal. Results as the
/// interpreter's at both Cranelift levels.
#[test]
fn functions_with_many_parameters_or_arguments_compile_in_the_huge_tier() {
    for (n, tier) in [
        (3, Tier::Normal),
        (MAX_NORMAL_ARGS, Tier::Normal),
        (MAX_NORMAL_ARGS + 1, Tier::Huge),
        (2_000, Tier::Huge),
    ] {
        let module = parse(&many_args(n)).expect("parses");
        verify(&module).expect("verifies");
        let want: i64 = (0..n as i64)
            .map(|k| (k + 1) * if k % 2 == 0 { 7 } else { k })
            .sum();
        let interpreted = poolopt::interp::run(&module, "wide", &[7], &RunLimits::default());
        assert_eq!(interpreted.ok(), Some(want), "{n} arguments: interpreter");
        at_both_levels(&module, |cl_opt, compiled| {
            assert_eq!(compiled.tier_of("callee"), Some(tier), "{n} parameters");
            assert_eq!(compiled.tier_of("wide"), Some(tier), "{n} arguments");
            let got = compiled.run("wide", &[7], &RunLimits::default());
            assert_eq!(got.ok(), Some(want), "{n} arguments: JIT at {cl_opt}");
            // From the host, through its entry shim (past `SHIM_BACKTRACKING_PARAMS`
            // parameters compiled with the single-pass allocator).
            let ones = vec![1; n];
            let got = compiled.run("callee", &ones, &RunLimits::default());
            assert_eq!(
                got.ok(),
                Some((n * (n + 1) / 2) as i64),
                "{n} host arguments"
            );
        });
    }
}

/// `chain(m)`: `n` diamonds on `m < k`; with `own_value`, each arm assigns the running value
/// `s` from itself (`s = add s, 1` / `s = sub s, 2`), so every join has a parameter for `s`
/// computed from the one before; otherwise the arms assign `t` and the join adds it to `s`.
fn diamond_chain(n: usize, own_value: bool) -> String {
    let mut src = String::from(
        "fn chain(m: i64) -> i64 {\n    var s: i64\n    var t: i64\n    var c: bool\nentry:\n    s = copy m\n",
    );
    for k in 0..n {
        if own_value {
            src.push_str(&format!(
                "    c = slt m, {k}\n    brif c, a{k}, b{k}\na{k}:\n    s = add s, 1\n    br j{k}\nb{k}:\n    s = sub s, 2\n    br j{k}\nj{k}:\n"
            ));
        } else {
            src.push_str(&format!(
                "    c = slt m, {k}\n    brif c, a{k}, b{k}\na{k}:\n    t = add s, 1\n    br j{k}\nb{k}:\n    t = sub s, 2\n    br j{k}\nj{k}:\n    s = add s, t\n"
            ));
        }
    }
    src.push_str("    ret s\n}\n");
    src
}

/// A chain of joins each passing a value computed from the one before as a block parameter is
/// one growing bundle to the backtracking allocator (3,300 joins: 0.29 s, quadratic): past
/// `MAX_PARAM_CHAIN` joins the function compiles with the single-pass allocator, in the normal
/// tier. The near miss, a chain whose joins take a value computed from something else, keeps
/// the backtracking allocator; so does a chain under the bound.
#[test]
fn long_chains_of_block_parameters_compile_with_the_single_pass_allocator() {
    const { assert!(800 < MAX_PARAM_CHAIN && MAX_PARAM_CHAIN < 1_200) };
    for (n, own_value, single_pass) in [
        (800, true, false),
        (1_200, true, true),
        (1_200, false, false),
    ] {
        let what = format!("{n} joins, own value {own_value}");
        let module = parse(&diamond_chain(n, own_value)).expect("parses");
        verify(&module).expect("verifies");
        let want = poolopt::interp::run(&module, "chain", &[7], &RunLimits::default())
            .expect("the interpreter runs it");
        at_both_levels(&module, |cl_opt, compiled| {
            assert_eq!(compiled.tier_of("chain"), Some(Tier::Normal), "{what}");
            assert_eq!(
                compiled.single_pass_of("chain"),
                Some(single_pass),
                "{what} at {cl_opt}"
            );
            let got = compiled.run("chain", &[7], &RunLimits::default());
            assert_eq!(got.ok(), Some(want), "{what}: JIT at {cl_opt}");
        });
    }
}
