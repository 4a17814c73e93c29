//! The shared analyses on shapes that would break a recursive implementation: a 100,000-block
//! chain of diamonds (CFG, dominator tree, liveness), run on a test thread's small stack; and
//! the fact analysis on many copies of one local, which made its sets grow quadratically.

mod common;

use poolopt_ir::{CmpOp, Function, Local, ModuleBuilder, Type};
use poolopt_passes::analysis::facts::{FactLimits, FactQueries, GaveUp};
use poolopt_passes::analysis::{Cfg, DomTree, FactAnalysis, Liveness};
use poolopt_passes::{OptLevel, PassContext, PassManager, Stats};

/// `f(x)`: a chain of `n` diamonds `head_k -> (left_k | right_k) -> head_{k+1}`.
fn diamonds(n: usize) -> Function {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).unwrap();
    let c = fb.local("c", Type::BOOL);
    let mut head = fb.create_block("head0");
    for k in 0..n {
        let left = fb.create_block(&format!("left{k}"));
        let right = fb.create_block(&format!("right{k}"));
        let next = fb.create_block(&format!("head{}", k + 1));
        fb.switch_to_block(head);
        fb.compare(c, CmpOp::Slt, x, k as i64);
        fb.brif(c, left, right);
        fb.switch_to_block(left);
        fb.br(next);
        fb.switch_to_block(right);
        fb.br(next);
        head = next;
    }
    fb.switch_to_block(head);
    fb.ret(Some(x.into()));
    let module = mb.finish().unwrap();
    poolopt_ir::verify(&module).unwrap();
    module.funcs.values().next().unwrap().clone()
}

#[test]
fn hundred_thousand_blocks_without_recursion() {
    let n = 33_334; // 3 blocks per diamond: 100,003 blocks
    let func = diamonds(n);
    assert!(func.layout.len() > 100_000);
    let cfg = Cfg::compute(&func);
    assert_eq!(cfg.rpo().len(), func.layout.len());
    assert_eq!(cfg.rpo()[0], func.layout[0]);
    let dom = DomTree::compute(&cfg);
    let head = |k: usize| func.block_by_name(&format!("head{k}")).unwrap();
    let left = |k: usize| func.block_by_name(&format!("left{k}")).unwrap();
    let right = |k: usize| func.block_by_name(&format!("right{k}")).unwrap();
    // Every head dominates everything after it; a diamond's arms dominate nothing but themselves.
    assert_eq!(dom.idom(head(n)), Some(head(n - 1)));
    assert!(dom.dominates(head(0), head(n)));
    assert!(dom.dominates(head(10), left(20)));
    assert!(!dom.dominates(left(5), head(6)));
    assert!(!dom.dominates(right(5), head(6)));
    assert!(!dom.dominates(head(7), head(6)));
    // `x` is live everywhere; `c` only between its compare and the branch.
    let live = Liveness::compute(&func, &cfg);
    let x = func.params[0];
    let c = func.local_by_name("c").unwrap();
    assert!(live.live_in(head(n)).contains(x));
    assert!(live.live_in(left(n / 2)).contains(x));
    assert!(!live.live_in(head(3)).contains(c));
}

#[test]
fn unreachable_blocks_have_no_dominator() {
    let mut func = diamonds(3);
    let orphan = func.add_block("orphan");
    func.blocks[orphan].terminator = Some(poolopt_ir::Terminator::Ret(Some(0i64.into())));
    let cfg = Cfg::compute(&func);
    assert!(!cfg.is_reachable(orphan));
    let dom = DomTree::compute(&cfg);
    assert_eq!(dom.idom(orphan), None);
    assert!(!dom.dominates(func.layout[0], orphan));
}

/// `i0 = x & 7`, then `i1 = copy i0`, ..., `i200 = copy i0` (what value numbering makes of 200
/// equal masks), then `get v[ik]` for each with `len(v) == 8`. Every access is proved, and the
/// fact set stays linear in the copies: copying every relation of `i0` to each new copy made
/// all copies pairwise related (40,604 constraints here).
#[test]
fn copies_of_one_local_keep_the_fact_sets_linear() {
    let n = 200;
    let mut src = String::from("fn f(x: i64) -> i64 {\n    var v: vec<i64>\n    var t: i64\n");
    src.push_str("    var acc: i64\n");
    for k in 0..=n {
        src.push_str(&format!("    var i{k}: i64\n"));
    }
    src.push_str("entry:\n    v = new vec<i64>\n");
    for k in 0..8 {
        src.push_str(&format!("    push v, {k}\n"));
    }
    src.push_str("    i0 = and x, 7\n");
    for k in 1..=n {
        src.push_str(&format!("    i{k} = copy i0\n"));
    }
    src.push_str("    acc = copy 0\n");
    for k in 0..=n {
        src.push_str(&format!("    t = get v[i{k}]\n    acc = add acc, t\n"));
    }
    src.push_str("    ret acc\n}\n");
    let module = common::module(&src);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let facts = FactAnalysis::compute(func, &cfg);
    let entry = func.layout[0];
    let mut cursor = facts.cursor(func, entry).unwrap();
    let (mut largest, mut proved) = (0, 0);
    let v = func.local_by_name("v").unwrap();
    while let Some((_, inst)) = cursor.peek() {
        let set = cursor.facts();
        largest = largest.max(set.constraints().len());
        if let poolopt_ir::InstKind::VecGet {
            index: poolopt_ir::Operand::Local(i),
            ..
        } = *func.inst(inst)
        {
            if set.non_neg(i) && set.lt_len(i, v) {
                proved += 1;
            }
        }
        cursor.advance();
    }
    assert_eq!(proved, n + 1, "every access is proved");
    assert!(largest <= 8 * n, "{largest} constraints for {n} copies");
}

/// The pops of [`common::guarded_pops_of_many_vecs`] the facts prove, and why the analysis gave up.
fn proved_guarded_pops(n: usize) -> (usize, Option<GaveUp>) {
    let module = common::module(&common::guarded_pops_of_many_vecs(n));
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let facts = FactAnalysis::compute(func, &cfg);
    let mut proved = 0;
    for &block in &func.layout {
        let Some(mut cursor) = facts.cursor(func, block) else {
            continue;
        };
        while let Some((_, inst)) = cursor.peek() {
            if let poolopt_ir::InstKind::VecPop { vec, .. } = *func.inst(inst) {
                if cursor.facts().len_gt(vec, 0) {
                    proved += 1;
                }
            }
            cursor.advance();
        }
    }
    (proved, facts.gave_up())
}

/// The stored-facts safety net: below it every guarded pop is proved; past it (2,000 vecs
/// stored 32 million facts, 520 MB, before the net) the analysis gives up, knows nothing,
/// and says why, instead of growing with the square of the function.
#[test]
fn many_live_vecs_prove_their_pops_until_the_stored_facts_bound() {
    assert_eq!(proved_guarded_pops(300), (300, None));
    let n = 1100; // about 2n * 2n = 4.8 million facts, past MAX_STORED_FACTS
    assert!(4 * n * n > poolopt_passes::analysis::facts::MAX_STORED_FACTS);
    assert_eq!(proved_guarded_pops(n), (0, Some(GaveUp::StoredFacts)));
}

/// Liveness keeps one bit per local, in words of 64: with more than 64 locals every block's
/// set spans several words. A chain of 80 blocks, block `k` defining `l{k}` from `l{k-1}`:
/// `l{k-1}` is live into block `k` and nowhere else, and the parameter `x` (read by the
/// last block) everywhere.
#[test]
fn liveness_with_more_locals_than_one_word_holds() {
    let n = 80;
    let mut src = String::from("fn f(x: i64) -> i64 {\n");
    for k in 0..n {
        src += &format!("    var l{k}: i64\n");
    }
    src += "entry:\n    l0 = copy 1\n    br b1\n";
    for k in 1..n {
        src += &format!("b{k}:\n    l{k} = add l{}, 1\n", k - 1);
        if k + 1 < n {
            src += &format!("    br b{}\n", k + 1);
        } else {
            src += &format!("    l{k} = add l{k}, x\n    ret l{k}\n");
        }
    }
    src += "}\n";
    let module = common::module(&src);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    // Every instruction's result is read, so strong liveness (dead-local-elim's) agrees.
    for live in [
        Liveness::compute(func, &cfg),
        Liveness::compute_strong(func, &cfg),
    ] {
        let x = func.params[0];
        for k in 1..n {
            let block = func.block_by_name(&format!("b{k}")).unwrap();
            let (live_in, live_out) = (live.live_in(block), live.live_out(block));
            assert!(live_in.contains(x), "x live into b{k}");
            for j in 0..n {
                let l = func.local_by_name(&format!("l{j}")).unwrap();
                assert_eq!(live_in.contains(l), j + 1 == k, "l{j} live into b{k}");
                assert_eq!(
                    live_out.contains(l),
                    j == k && k + 1 < n,
                    "l{j} live out of b{k}"
                );
            }
        }
    }
}

/// The sets range over *boundary* locals only (read in some block before any assignment
/// there). A temporary written before it is read in its one block is in no set; a local read
/// at the top of a loop body and assigned below it in the same block (the near miss: block-local
/// by its uses, but upward-exposed) is live into the body and out of it along the back edge;
/// a local read before any assignment at all (it reads as zero) is live into its block and the
/// entry. Many block-local temporaries in many blocks then cost no bits per block.
#[test]
fn liveness_tracks_only_locals_read_before_written_in_some_block() {
    let src = "fn f(n: i64) -> i64 {
    var i: i64
    var t: i64
    var u: i64
    var z: i64
    var c: bool
entry:
    i = copy 0
    br body
body:
    t = add i, 1
    i = copy t
    c = slt i, n
    brif c, body, exit
exit:
    u = add z, i
    ret u
}
";
    let module = common::module(src);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let local = |name: &str| func.local_by_name(name).unwrap();
    let block = |name: &str| func.block_by_name(name).unwrap();
    for live in [
        Liveness::compute(func, &cfg),
        Liveness::compute_strong(func, &cfg),
    ] {
        let (entry, body, exit) = (block("entry"), block("body"), block("exit"));
        assert!(live.live_in(body).contains(local("i")));
        assert!(live.live_out(body).contains(local("i")));
        assert!(live.live_in(body).contains(local("n")));
        assert!(live.live_in(exit).contains(local("z")));
        assert!(live.live_in(entry).contains(local("z")));
        assert!(!live.live_in(entry).contains(local("i")));
        for temp in ["t", "u", "c"] {
            for b in [entry, body, exit] {
                assert!(!live.live_in(b).contains(local(temp)), "{temp} live in");
                assert!(!live.live_out(b).contains(local(temp)), "{temp} live out");
            }
        }
        // An owned copy agrees with the view, for boundary and block-local locals alike.
        let copy = live.live_out(body).to_set();
        assert!(copy.contains(local("i")) && copy.contains(local("z")));
        assert!(!copy.contains(local("t")) && !copy.contains(local("c")));
    }
}

/// `f` of this case file is a loop whose every turn pops and counts down a copy of the
/// length: under the ordinary widening each visit of its header changes the in-state again, so
/// only the strict widening ends the fixpoint (the sweeps grow with the visits allowed before
/// it). (A loop that only pops no longer spins: its header flipped between `len(v) >= 0` and
/// nothing, and no set records what every length satisfies any more.)
const SHRINKING_LOOP: &str = include_str!("checks/shrinking_loop_counts_down.pir");

/// The module of [`SHRINKING_LOOP`] and the fact analysis of its `f` under `limits`.
fn shrinking_loop_facts(limits: FactLimits) -> (poolopt_ir::Module, FactAnalysis) {
    let module = common::module(SHRINKING_LOOP);
    let func = &module.funcs[module.func_by_name("f").expect("f")];
    let cfg = Cfg::compute(func);
    let live = Liveness::compute(func, &cfg);
    let facts = FactAnalysis::compute_with_limits(func, &cfg, &live, None, limits);
    (module, facts)
}

fn with_strict_after(strict_after: u32) -> FactLimits {
    FactLimits {
        strict_after,
        ..FactLimits::default()
    }
}

/// The widening schedule: a header's widening turns strict after its fourth changed visit.
/// Measured on the spinning loop: the fixpoint takes seven sweeps by default, three when the
/// first widening is strict, 103 when the strict one waits for 100 visits, and without it the
/// sweep safety net gives up.
#[test]
fn strict_widening_starts_after_the_fourth_changed_visit_of_a_header() {
    assert_eq!(FactLimits::default().strict_after, 4);
    let (_, default) = shrinking_loop_facts(FactLimits::default());
    assert_eq!((default.sweeps(), default.gave_up()), (7, None));
    let (_, strict_first) = shrinking_loop_facts(with_strict_after(0));
    assert_eq!((strict_first.sweeps(), strict_first.gave_up()), (3, None));
    let (_, late) = shrinking_loop_facts(with_strict_after(100));
    assert_eq!((late.sweeps(), late.gave_up()), (103, None));
    let (_, never) = shrinking_loop_facts(with_strict_after(u32::MAX));
    assert_eq!(never.gave_up(), Some(GaveUp::Sweeps));
    assert_eq!(never.sweeps(), FactLimits::default().max_sweeps + 1);
}

/// The driver takes the CFG's strongly connected components in topological order: outside
/// loops every block is evaluated once, after all its predecessors, so a function without a
/// loop is one sweep (its blocks are evaluated once each), and a block's in-state is there.
/// The exception is the last block, a bare `ret x`: a block without instructions or
/// successors decides nothing and passes nothing on, so it is not evaluated.
#[test]
fn a_function_without_loops_is_one_sweep() {
    let func = diamonds(50);
    let cfg = Cfg::compute(&func);
    let live = Liveness::compute(&func, &cfg);
    let facts = FactAnalysis::compute_with(&func, &cfg, &live);
    assert_eq!((facts.sweeps(), facts.gave_up()), (1, None));
    assert_eq!(facts.evaluations(), cfg.rpo().len() - 1);
    let (&last, rest) = cfg.rpo().split_last().expect("blocks");
    assert!(rest.iter().all(|&b| facts.block_in(b).is_some()));
    assert!(func.blocks[last].insts.is_empty() && facts.block_in(last).is_none());
}

/// In a loop, a block is evaluated again only when a predecessor's out-state changed since its
/// last evaluation: the sweep that changes nothing evaluates only the header (its latch
/// changed in the sweep before), so there are fewer evaluations than blocks times sweeps.
#[test]
fn a_sweep_evaluates_only_blocks_whose_predecessors_changed() {
    let (module, facts) = shrinking_loop_facts(FactLimits::default());
    let func = &module.funcs[module.func_by_name("f").expect("f")];
    let blocks = Cfg::compute(func).rpo().len();
    assert!(facts.sweeps() > 2);
    assert!(
        facts.evaluations() < blocks * facts.sweeps(),
        "{} evaluations, {blocks} blocks, {} sweeps",
        facts.evaluations(),
        facts.sweeps()
    );
}

/// A loop whose header is the entry: the entry and the loop body are one cyclic component, so
/// the fixpoint sweeps them (split into two acyclic components, the entry would be evaluated
/// once, before its back edge carried any facts, and never again).
#[test]
fn a_loop_through_the_entry_is_iterated() {
    let module = common::module(
        "fn f(v: vec<i64>) -> i64 {
    var k: i64
    var c: bool
entry:
    k = len v
    c = slt k, 3
    brif c, grow, done
grow:
    push v, 0
    br entry
done:
    ret k
}
",
    );
    let func = &module.funcs[module.func_by_name("f").expect("f")];
    let cfg = Cfg::compute(func);
    let live = Liveness::compute(func, &cfg);
    let facts = FactAnalysis::compute_with(func, &cfg, &live);
    assert!(
        facts.sweeps() >= 2,
        "the loop was swept {} times",
        facts.sweeps()
    );
    let components = poolopt_ir::components::Components::of(&cfg);
    assert_eq!(components.len(), 2);
    assert!(components.is_cyclic(0) && !components.is_cyclic(1));
}

/// The sweep safety net at its edge: a fixpoint of exactly `max_sweeps` sweeps is kept, one
/// sweep fewer allowed gives up (and then knows nothing anywhere).
#[test]
fn the_sweep_limit_allows_exactly_its_number_of_sweeps() {
    let needed = shrinking_loop_facts(FactLimits::default()).1.sweeps();
    let (_, at) = shrinking_loop_facts(FactLimits {
        max_sweeps: needed,
        ..FactLimits::default()
    });
    assert_eq!((at.sweeps(), at.gave_up()), (needed, None));
    let (_, below) = shrinking_loop_facts(FactLimits {
        max_sweeps: needed - 1,
        ..FactLimits::default()
    });
    assert_eq!(
        (below.sweeps(), below.gave_up()),
        (needed, Some(GaveUp::Sweeps))
    );
    assert_eq!(below.stored_facts(), 0, "a gave-up analysis stores nothing");
}

/// The stored-facts count is the facts the block sets hold (blocks evaluated again replace
/// what they stored), and the safety net allows exactly its number: the peak is kept, one
/// fact fewer gives up.
#[test]
fn the_stored_facts_count_is_what_the_sets_hold_and_its_limit_is_exact() {
    let (module, facts) = shrinking_loop_facts(FactLimits::default());
    let func = &module.funcs[module.func_by_name("f").expect("f")];
    let held: usize = func
        .layout
        .iter()
        .flat_map(|&b| [facts.block_in(b), facts.block_out(b)])
        .flatten()
        .map(|set| set.entries())
        .sum();
    assert!(held > 0);
    assert_eq!(facts.stored_facts(), held);
    let peak = facts.peak_stored_facts();
    assert!(peak >= held);
    let (_, at) = shrinking_loop_facts(FactLimits {
        max_stored_facts: peak,
        ..FactLimits::default()
    });
    assert_eq!(at.gave_up(), None);
    assert_eq!(at.stored_facts(), held);
    let (_, below) = shrinking_loop_facts(FactLimits {
        max_stored_facts: peak - 1,
        ..FactLimits::default()
    });
    assert_eq!(below.gave_up(), Some(GaveUp::StoredFacts));
}

/// A guarded pop in a loop, then a loop that only sums (no check after it), then a return;
/// and a check in a loop whose latch comes after it (the latch reaches the check through the
/// back edge, so it is demanded).
const CHECKS_THEN_A_SUMMING_TAIL: &str = "
fn f(v: vec<i64>, n: i64) -> i64 {
    var k: i64
    var s: i64
    var x: i64
    var c: bool
    var m: i64
entry:
    k = copy 0
    s = copy 0
    br head
head:
    c = slt k, n
    brif c, body, tail_head
body:
    m = len v
    c = sgt m, 0
    brif c, take, latch
take:
    x = pop v
    s = add s, x
    br latch
latch:
    k = add k, 1
    br head
tail_head:
    c = slt k, 100
    brif c, tail_body, done
tail_body:
    s = add s, k
    k = add k, 1
    br tail_head
done:
    ret s
}
";

/// The analysis at the checks' blocks ([`FactDemand::AtChecks`]) evaluates every block from
/// which a check can be reached, with exactly the facts of the full analysis there, and
/// nothing after the last check: the summing loop and the return have no state.
#[test]
fn facts_at_checks_are_the_full_facts_where_a_check_can_be_reached() {
    use poolopt_passes::analysis::facts::{FactDemand, FactSetPool};
    let module = common::module(CHECKS_THEN_A_SUMMING_TAIL);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let live = Liveness::compute(func, &cfg);
    let mut pool = FactSetPool::default();
    let full =
        FactAnalysis::compute_pooled(func, &cfg, &live, None, &mut pool, FactDemand::Everywhere);
    let at_checks =
        FactAnalysis::compute_pooled(func, &cfg, &live, None, &mut pool, FactDemand::AtChecks);
    assert_eq!(
        (full.demand(), at_checks.demand()),
        (FactDemand::Everywhere, FactDemand::AtChecks)
    );
    let block = |name: &str| func.block_by_name(name).unwrap();
    for name in ["entry", "head", "body", "take", "latch"] {
        let b = block(name);
        assert!(full.block_in(b).is_some(), "{name}");
        assert_eq!(at_checks.block_in(b), full.block_in(b), "{name}");
        assert_eq!(at_checks.block_out(b), full.block_out(b), "{name}");
    }
    // The pop's guard is known in `take` either way.
    let take = at_checks.block_in(block("take")).unwrap();
    assert!(take.len_gt(func.params[0], 0));
    for name in ["tail_head", "tail_body"] {
        assert!(full.block_in(block(name)).is_some(), "{name}");
        assert!(at_checks.block_in(block(name)).is_none(), "{name}");
    }
    assert!(at_checks.evaluations() < full.evaluations());
}

/// `m` holds `len(v)` and bounds `i` in `inside`, and only `other` reads it again: on the
/// edge into `read`, where nothing else dies, `m` is composed away, so `read`'s entry state
/// states `i < len(v)` directly and mentions `m` nowhere. (A fast path that skipped the
/// composition when no compare result dies would leave `m`'s term in every later set.)
const A_BOUND_DYING_ON_ONE_EDGE: &str = "
fn f(v: vec<i64>, i: i64, c: bool) -> i64 {
    var m: i64
    var t: bool
    var x: i64
entry:
    m = len v
    t = slt i, m
    brif t, inside, out
inside:
    brif c, read, other
read:
    x = get v[i]
    ret x
other:
    x = add m, 1
    ret x
out:
    ret 0
}
";

#[test]
fn a_local_dying_on_an_edge_is_composed_away_there() {
    use poolopt_passes::analysis::facts::Term;
    let module = common::module(A_BOUND_DYING_ON_ONE_EDGE);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let live = Liveness::compute(func, &cfg);
    let facts = FactAnalysis::compute_with_limits(func, &cfg, &live, None, FactLimits::default());
    let (m, i, v) = (
        func.local_by_name("m").unwrap(),
        func.local_by_name("i").unwrap(),
        func.local_by_name("v").unwrap(),
    );
    let block = |name: &str| func.block_by_name(name).unwrap();
    let mentions_m = |name: &str| {
        let set = facts.block_in(block(name)).unwrap();
        set.constraints()
            .iter()
            .any(|k| k.a == Term::value(m) || k.b == Term::value(m))
    };
    // `m` is live into `inside` and `other`, and known there.
    assert!(mentions_m("inside") && mentions_m("other"));
    let read = facts.block_in(block("read")).unwrap();
    assert!(!mentions_m("read"), "m is dead in `read`: {read:?}");
    let direct = read
        .constraints()
        .iter()
        .any(|k| k.a == Term::value(i) && k.b == Term::len(v) && k.c <= -1);
    assert!(direct, "i < len(v) recorded directly: {read:?}");
}

/// The compares a set holds are capped like its constraints: more live compare results than
/// `MAX_SET_FACTS` leave the set full, no fuller. And a compare stored in a local that dies
/// within a block goes with it (untracked bools here: nothing but the compare is about them).
#[test]
fn compares_are_capped_and_a_dead_ones_goes() {
    use poolopt_passes::analysis::facts::constraints::MAX_SET_FACTS;
    let n = MAX_SET_FACTS + 10;
    let mut src = String::from("fn f(m: i64) -> i64 {\n    var d: bool\n    var e: bool\n");
    for k in 0..n {
        src += &format!("    var c{k}: bool\n");
    }
    src += "entry:\n    e = slt m, 0\n    d = not e\n";
    for k in 0..n {
        src += &format!("    c{k} = slt m, {k}\n");
    }
    src += "    br again\nagain:\n";
    for k in 0..n {
        src += &format!("    d = not c{k}\n");
    }
    src += "    brif d, yes, no\nyes:\n    ret 1\nno:\n    ret 0\n}\n";
    let module = common::module(&src);
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let facts = FactAnalysis::compute(func, &cfg);
    let out = facts
        .block_out(func.block_by_name("entry").unwrap())
        .unwrap();
    assert_eq!(out.compares().len(), MAX_SET_FACTS);
    // `e` died after `d = not e` (and `d`, written again in `again`, at the block's end):
    // their compares are gone; the first results, still live, are there.
    let local = |name: &str| func.local_by_name(name).unwrap();
    for dead in ["e", "d"] {
        assert!(!out.compares().iter().any(|f| f.c == local(dead)), "{dead}");
    }
    assert!(out.compares().iter().any(|f| f.c == local("c0")));
}

/// How many words the liveness sets of a function take: blocks times the words of a set, over
/// every local up to 512 (100 locals: 2 words) and over the locals some block reads before
/// assigning them past it (600 block-local temporaries and one parameter: 1 word).
#[test]
fn liveness_set_words_count_blocks_times_words() {
    let function = |locals: usize| {
        let mut src = String::from("fn f(x: i64) -> i64 {\n");
        for k in 0..locals {
            src += &format!("    var t{k}: i64\n");
        }
        src += "entry:\n";
        for k in 0..locals {
            src += &format!("    t{k} = add x, {k}\n");
        }
        src += "    br out\nout:\n    ret x\n}\n";
        common::module(&src)
    };
    let words = |locals| Liveness::set_words(function(locals).funcs.values().next().unwrap());
    assert_eq!(words(100), 2 * 2);
    assert_eq!(words(600), 2);
}

/// The locals the inliner resets in every copy of a callee (`PassContext::entry_live_locals`,
/// a forward walk of the callee without a CFG) are the locals other than parameters that
/// liveness finds live into the entry: for every function of the repository's programs, as
/// written and after the O2 pipeline (the bodies the inliner copies).
#[test]
fn entry_live_locals_are_the_live_in_set_of_the_entry() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "tests/checks",
        "../../tests/passes",
        "../../examples/workloads",
    ] {
        let entries = std::fs::read_dir(root.join(dir)).unwrap();
        files.extend(
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pir")),
        );
    }
    files.sort();
    assert!(files.len() >= 200, "only {} programs", files.len());
    let mut functions = 0;
    for path in &files {
        let written = common::module(&std::fs::read_to_string(path).unwrap());
        let mut optimized = written.clone();
        PassManager::for_level(OptLevel::O2)
            .run(&mut optimized)
            .unwrap();
        for m in [&written, &optimized] {
            for (id, func) in m.funcs.iter() {
                let Some(entry) = func.entry() else { continue };
                let live = Liveness::compute(func, &Cfg::compute(func));
                let expected: Vec<Local> = func
                    .locals
                    .keys()
                    .filter(|&l| !func.params.contains(&l) && live.live_in(entry).contains(l))
                    .collect();
                let (mut remarks, mut stats) = (Vec::new(), Stats::default());
                let mut cx = PassContext::new(m, &func.name, &mut remarks, &mut stats);
                let found = cx.entry_live_locals(id);
                assert_eq!(
                    &*found,
                    &expected[..],
                    "{} in {}",
                    func.name,
                    path.display()
                );
                functions += 1;
            }
            // An id the module lacks has no locals.
            let (mut remarks, mut stats) = (Vec::new(), Stats::default());
            let mut cx = PassContext::new(m, "none", &mut remarks, &mut stats);
            let missing = poolopt_ir::FuncId::from_u32(m.funcs.len() as u32);
            assert!(cx.entry_live_locals(missing).is_empty());
        }
    }
    assert!(functions >= 800, "only {functions} functions");
}
