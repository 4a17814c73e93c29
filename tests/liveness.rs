//! Liveness has two algorithms: sweeps over the blocks until nothing changes, and exploration
//! from each read backwards (`crates/passes/src/analysis/liveness/explore.rs`), which
//! `Liveness::compute` switches to when a loop nest needs more than `MAX_SWEEPS` sweeps. Both
//! must give the same sets, plain and strong, on every function: the repository's programs,
//! generated functions with arbitrary (also irreducible) control flow, and loop nests deep
//! enough for the switch.

use poolopt::ir::cfg::Cfg;
use poolopt::ir::{
    parse, verify, verify_with, Block, Function, InstKind, Local, Module, Operand, VerifyOptions,
};
use poolopt::passes::analysis::liveness::{StrongScratch, MAX_SWEEPS};
use poolopt::passes::analysis::Liveness;
use poolopt_test_support::{loop_nest, pir_files_below, XorShift};
use std::path::PathBuf;

/// Asserts that sweeps (without a bound) and exploration agree on `func`, plain and strong,
/// and that `compute` agrees with both; returns how many sweeps the plain liveness needed
/// beyond the bound (whether `compute` explored).
fn agree(func: &Function, what: &str) -> bool {
    let cfg = Cfg::compute(func);
    let swept = Liveness::by_sweeps(func, &cfg, usize::MAX).expect("unbounded sweeps end");
    let explored = Liveness::by_exploration(func, &cfg, false);
    assert!(
        swept.same_sets(&explored, func),
        "{what}: plain liveness differs"
    );
    assert!(
        Liveness::compute(func, &cfg).same_sets(&swept, func),
        "{what}: compute"
    );
    let mut scratch = StrongScratch::default();
    let strong_swept = Liveness::strong_by_sweeps(func, &cfg, &mut scratch, usize::MAX)
        .expect("unbounded sweeps end");
    for &block in cfg.rpo() {
        assert_eq!(
            scratch.has_dead_definition(block),
            has_dead_definition(func, &strong_swept, block),
            "{what}: blocks with a dead definition, {}",
            func.blocks[block].name
        );
    }
    let strong_explored = Liveness::by_exploration(func, &cfg, true);
    assert!(
        strong_swept.same_sets(&strong_explored, func),
        "{what}: strong liveness differs"
    );
    assert!(
        Liveness::compute_strong(func, &cfg).same_sets(&strong_swept, func),
        "{what}: compute_strong"
    );
    Liveness::by_sweeps(func, &cfg, MAX_SWEEPS).is_none()
}

/// Whether some instruction of `block` defines a local that is not strongly live right
/// after it: a backward walk from the block's strong live-out set, on its own (a pure
/// instruction with a dead destination reads nothing, as in strong liveness).
fn has_dead_definition(func: &Function, strong: &Liveness, block: Block) -> bool {
    let mut live: Vec<Local> = func
        .locals
        .keys()
        .filter(|&l| strong.live_out(block).contains(l))
        .collect();
    if let Some(Operand::Local(l)) = func.blocks[block]
        .terminator
        .as_ref()
        .and_then(|t| t.used_operand())
    {
        live.push(l);
    }
    let mut dead = false;
    for &inst in func.blocks[block].insts.iter().rev() {
        let kind = &func.insts[inst].kind;
        if let Some(d) = kind.def() {
            let live_after = live.contains(&d);
            dead |= !live_after;
            if !live_after && kind.is_removable_when_dead() {
                continue;
            }
            if !matches!(kind, InstKind::SetField { .. }) {
                live.retain(|&l| l != d);
            }
        }
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                live.push(l);
            }
        });
    }
    dead
}

fn agree_on_module(module: &Module, what: &str) -> usize {
    for func in module.funcs.values() {
        agree(func, &format!("{what}: {}", func.name));
    }
    module.funcs.len()
}

#[test]
fn sweeps_and_exploration_agree_on_every_program_of_the_repository() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = pir_files_below(&[root.join("tests"), root.join("examples")]);
    let mut functions = 0;
    for path in &files {
        let src = std::fs::read_to_string(path).expect("readable");
        // Malformed inputs (the parser's and verifier's own tests) have no liveness to check.
        let Ok(module) = parse(&src) else { continue };
        if verify_with(&module, &VerifyOptions::TRUSTED).is_err() {
            continue;
        }
        functions += agree_on_module(&module, &path.display().to_string());
    }
    assert!(functions > 300, "only {functions} functions found");
}

/// A function of `blocks` blocks over four `i64` locals, a bool and a vec, each block a few
/// random instructions (pure ones, whose results strong liveness may find dead, and pushes,
/// which always run) and a random terminator: any control flow, loops and irreducible ones
/// included.
fn random_function(rng: &mut XorShift, blocks: usize) -> String {
    random_function_over(rng, blocks, 0)
}

/// [`random_function`] with `extra` more `i64` locals `e0`, `e1`, ... that the instructions
/// pick as often as the others together: past 512 locals the liveness sets range over the
/// locals read across blocks only (its *boundary* numbering), which the walks through a
/// block (`LiveWalk`) must translate.
fn random_function_over(rng: &mut XorShift, blocks: usize, extra: usize) -> String {
    let mut s = String::from(
        "fn f(p: i64) -> i64 {\n    var a: i64\n    var b: i64\n    var c: i64\n    var d: i64\n    var t: bool\n    var v: vec<i64>\n",
    );
    for k in 0..extra {
        s += &format!("    var e{k}: i64\n");
    }
    s += "entry:\n    v = new vec<i64>\n    br b0\n";
    let extras: Vec<String> = (0..extra).map(|k| format!("e{k}")).collect();
    let names = ["a", "b", "c", "d", "p"];
    let pick = |rng: &mut XorShift| -> &str {
        if extra > 0 && rng.below(2) == 0 {
            &extras[rng.below(extra)]
        } else {
            names[rng.below(names.len())]
        }
    };
    for k in 0..blocks {
        s += &format!("b{k}:\n");
        for _ in 0..rng.below(4) {
            let (x, y, z) = (pick(rng), pick(rng), pick(rng));
            let x = if x == "p" { "a" } else { x };
            s += &match rng.below(6) {
                0 => format!("    {x} = add {y}, {z}\n"),
                1 => format!("    {x} = copy {y}\n"),
                2 => format!("    {x} = add {y}, 1\n"),
                3 => format!("    t = slt {y}, {z}\n"),
                4 => format!("    push v, {y}\n"),
                _ => format!("    {x} = len v\n"),
            };
        }
        // Every block but the last has an edge to the next, so every block is reachable
        // (the verifier rejects unreachable ones); the other edge goes anywhere.
        let target = |rng: &mut XorShift| format!("b{}", rng.below(blocks));
        let next = format!("b{}", k + 1);
        s += &match rng.below(4) {
            _ if k + 1 == blocks && rng.below(2) == 0 => format!("    ret {}\n", pick(rng)),
            _ if k + 1 == blocks => format!("    br {}\n", target(rng)),
            0 => format!("    br {next}\n"),
            1 => format!("    brif t, {}, {next}\n", target(rng)),
            _ => format!("    brif t, {next}, {}\n", target(rng)),
        };
    }
    s += "}\n";
    s
}

#[test]
fn sweeps_and_exploration_agree_on_generated_control_flow() {
    let mut rng = XorShift::new(0x5eed_11fe);
    for case in 0..400 {
        let src = random_function(&mut rng, 2 + case % 24);
        let module = parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        verify(&module).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        agree_on_module(&module, &src);
    }
}

/// The same over more than 512 locals, most of them used in one block or two: the sets
/// range over the boundary locals only.
#[test]
fn sweeps_and_exploration_agree_over_boundary_numbered_locals() {
    let mut rng = XorShift::new(0xb0_0dda);
    for case in 0..60 {
        // Few enough blocks that many of the extra locals are read in a block before
        // being written there (boundary locals), and many are not.
        let src = random_function_over(&mut rng, 2 + case % 12, 600);
        let module = parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        verify(&module).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        agree_on_module(&module, &format!("case {case}"));
    }
}

/// Past `MAX_SWEEPS` levels `compute` explores (the sweeps give up), and still agrees; a
/// shallow nest stays with the sweeps.
#[test]
fn deep_loop_nests_switch_to_exploration_with_the_same_sets() {
    for (depth, explores) in [(2, false), (MAX_SWEEPS + 4, true), (60, true)] {
        let src = loop_nest(depth);
        let module = parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        verify(&module).unwrap_or_else(|e| panic!("{e:?}"));
        let func = module.funcs.values().next().unwrap();
        assert_eq!(
            agree(func, &format!("nest {depth}")),
            explores,
            "depth {depth}"
        );
    }
}
