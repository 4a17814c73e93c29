//! The pass manager: runs a pipeline over every function of a module, keeps the shared
//! analyses until a pass reports a change, and — outside the passes — verifies after each
//! pass, records the IR after each pass and a unified diff of what it changed.

use crate::analysis::{CallEffects, CallGraph, Liveness};
use crate::pass::{ContextStorage, EntryLiveCache, OptLevel, Pass, PassContext};
use crate::registry;
use crate::remark::{Remark, Stats};
use crate::timing::{Analysis, PassTimings, Stopwatch, Timing};
use crate::unit_budget::UnitBudget;
use poolopt_ir::{
    print_function, verify_function_with, verify_with, EntityRef, FuncId, Function, Module, Type,
    VerifyError, VerifyOptions,
};
use std::cell::RefCell;
use std::time::Duration;
use thiserror::Error;

/// What can go wrong while running passes.
#[derive(Debug, Error)]
pub enum PassError {
    /// `--passes` named a pass that does not exist.
    #[error("unknown pass `{name}`; valid passes are: {}", valid.join(", "))]
    UnknownPass {
        name: String,
        valid: Vec<&'static str>,
    },
    /// A pass produced IR that does not verify (a bug in that pass).
    #[error("IR does not verify after pass `{pass}` on function `{function}`: {}",
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    VerifyFailed {
        pass: &'static str,
        function: String,
        errors: Vec<VerifyError>,
    },
    /// A pass declared that it keeps an analysis valid, and a fresh one differs (a bug in that
    /// pass); checked when the manager verifies after each pass.
    #[error("pass `{pass}` declares that it keeps {analysis} valid, but it changed it in function `{function}`")]
    StaleAnalysis {
        pass: &'static str,
        function: String,
        analysis: &'static str,
    },
}

/// The IR of one function after one pass, and what the pass changed in it.
#[derive(Clone, Debug)]
pub struct PassDump {
    pub pass: &'static str,
    pub function: String,
    /// The function's text after the pass.
    pub after: String,
    /// Whether the pass changed the function's text.
    pub changed: bool,
    /// Unified diff of the function's text before → after (empty when unchanged, or when
    /// diffs are not recorded: [`PassManager::record_diffs`]).
    pub diff: String,
}

/// Everything a pipeline run reports.
#[derive(Clone, Debug, Default)]
pub struct PassReport {
    pub remarks: Vec<Remark>,
    pub stats: Stats,
    /// Filled when [`PassManager::record_dumps`] is on.
    pub dumps: Vec<PassDump>,
    /// Wall time spent inside passes (analyses included, verification and dumps excluded);
    /// zero unless [`PassManager::time_passes`] is on.
    pub pass_time: Duration,
    /// Per pass and per analysis: runs, changes, wall time (`--time-passes`).
    pub timings: PassTimings,
}

impl PassReport {
    /// Appends another run's report (remarks, dumps, counters, times).
    pub fn merge(&mut self, other: PassReport) {
        if self.is_empty() {
            // Into an empty report (the first function's, a session's first run): the other
            // report as it is, nothing copied.
            *self = other;
            return;
        }
        self.remarks.extend(other.remarks);
        self.stats.merge(&other.stats);
        self.dumps.extend(other.dumps);
        self.pass_time += other.pass_time;
        self.timings.merge(&other.timings);
    }

    /// Whether the report holds nothing at all (no remark, counter, dump, time or timing).
    pub fn is_empty(&self) -> bool {
        self.remarks.is_empty()
            && self.stats.is_empty()
            && self.dumps.is_empty()
            && self.pass_time == Duration::ZERO
            && self.timings.passes.is_empty()
            && self.timings.analyses.is_empty()
    }
}

/// A pipeline of passes plus the manager's debugging switches.
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    verify_each: bool,
    record_dumps: bool,
    record_diffs: bool,
    remarks: bool,
    stats: bool,
    time_passes: bool,
    max_liveness_words: usize,
}

impl PassManager {
    /// The fixed pipeline of `level` (see [`registry::pipeline`]).
    pub fn for_level(level: OptLevel) -> PassManager {
        PassManager::new(registry::pipeline(level))
    }

    /// An explicit list of passes by name (`--passes a,b,c`).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<PassManager, PassError> {
        let passes = names
            .iter()
            .map(|n| registry::pass_by_name(n.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PassManager::new(passes))
    }

    /// A pipeline of the given passes, in order.
    pub fn new(passes: Vec<Box<dyn Pass>>) -> PassManager {
        PassManager {
            passes,
            verify_each: cfg!(debug_assertions),
            record_dumps: false,
            record_diffs: true,
            remarks: false,
            stats: true,
            time_passes: false,
            max_liveness_words: MAX_LIVENESS_WORDS,
        }
    }

    /// Functions whose liveness sets would take more than `words` 64-bit words are left as
    /// they are (default [`MAX_LIVENESS_WORDS`], which explains the bound). An embedder that
    /// compiles such functions and can afford the time and memory raises it.
    pub fn max_liveness_words(mut self, words: usize) -> PassManager {
        self.max_liveness_words = words;
        self
    }

    /// Verify the module after every pass (on by default in debug builds).
    pub fn verify_each(mut self, on: bool) -> PassManager {
        self.verify_each = on;
        self
    }

    /// Measure the wall time of every pass and analysis ([`PassReport::timings`],
    /// [`PassReport::pass_time`]). Off by default: runs, changes and recomputations are counted
    /// either way, and only the clock reads (two per pass and function, two per analysis) are
    /// saved. `poolopt opt --time-passes` turns it on.
    pub fn time_passes(mut self, on: bool) -> PassManager {
        self.time_passes = on;
        self
    }

    /// Record the IR after each pass and a diff per pass in [`PassReport::dumps`].
    pub fn record_dumps(mut self, on: bool) -> PassManager {
        self.record_dumps = on;
        self
    }

    /// With [`PassManager::record_dumps`], whether each dump also gets its diff (on by
    /// default). A diff costs far more than the text (the lines times the differences), so a
    /// caller that only prints the text after each pass turns it off.
    pub fn record_diffs(mut self, on: bool) -> PassManager {
        self.record_diffs = on;
        self
    }

    /// Collect remarks (off by default: explaining every decision costs more than making it,
    /// and a JIT that only wants the code reads none; the decisions are the same either way).
    /// `poolopt opt --remarks`, the toy driver's `--remarks` and the pass tests turn them on.
    pub fn collect_remarks(mut self, on: bool) -> PassManager {
        self.remarks = on;
        self
    }

    /// Keep the passes' counters ([`PassReport::stats`]; on by default). A caller that prints
    /// none (`poolopt run`, the benchmarks) turns them off: counting, merging the functions'
    /// counters and ordering them cost a cold run's pipeline about 2% of its instructions,
    /// and the decisions are the same either way.
    pub fn collect_stats(mut self, on: bool) -> PassManager {
        self.stats = on;
        self
    }

    /// The names of the passes in this pipeline, in order.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Runs the pipeline over every function of `module` (which must have been verified).
    ///
    /// Never inlined: a phase boundary that callgrind's `--toggle-collect` counts by name
    /// (docs/benchmarks.md), which the release profile's link-time optimization would otherwise
    /// fold into its caller.
    #[inline(never)]
    pub fn run(&self, module: &mut Module) -> Result<PassReport, PassError> {
        self.run_filtered(module, None)
    }

    /// Runs the pipeline over the functions reachable through calls from `roots` only; the
    /// others stay as they are (a JIT that compiles lazily never compiles them, and nothing
    /// reachable calls them). `poolopt run --entry` uses this, so a module's unused functions
    /// cost nothing at any level.
    ///
    /// Never inlined: a phase boundary that callgrind's `--toggle-collect` counts by name
    /// (docs/benchmarks.md), which the release profile's link-time optimization would otherwise
    /// fold into its caller.
    #[inline(never)]
    pub fn run_reachable(
        &self,
        module: &mut Module,
        roots: &[FuncId],
    ) -> Result<PassReport, PassError> {
        self.run_filtered(module, Some(roots))
    }

    fn run_filtered(
        &self,
        module: &mut Module,
        roots: Option<&[FuncId]>,
    ) -> Result<PassReport, PassError> {
        let mut report = PassReport::default();
        // An empty pipeline (O0) changes nothing: no call graph, no per-function setup.
        if self.passes.is_empty() {
            return Ok(report);
        }
        // Bottom-up (callees first), so an interprocedural pass such as the inliner sees each
        // callee already optimized.
        // Each function's report is kept apart and merged in module order, so remarks, dumps
        // and counters read in the order of the source whatever the processing order (the
        // timings, kept per pass and per analysis, go straight into one record).
        let start = Stopwatch::start(self.time_passes);
        let mut call_graph = CallGraph::compute(module);
        let wanted = roots.map(|r| call_graph.reachable_from(r));
        if let Some(wanted) = &wanted {
            call_graph.count_sites_in(wanted);
        }
        // Only the functions being optimized are summarized: a call can only reach those.
        let call_effects = CallEffects::compute_for(module, &call_graph, wanted.as_ref());
        let unit_size: usize = module
            .funcs
            .iter()
            .filter(|(id, _)| wanted.as_ref().is_none_or(|w| w[*id]))
            .map(|(_, f)| f.inst_count())
            .sum();
        let unit_budget = UnitBudget::for_unit(unit_size);
        // One CFG's storage, one pool of fact sets and one set of work spaces serve every
        // function in turn; the timings are kept per pass and per analysis, so the order of
        // the functions does not matter.
        let mut storage = ContextStorage::default();
        storage.timings.record_analysis(Analysis::CallGraph, start);
        // Each pipeline position's runs, changes and time over the whole run, added to the
        // timings once at the end: recorded by name at every pass run, they cost a lookup and
        // a hundred instructions each time.
        let mut pass_runs = vec![Timing::default(); self.passes.len()];
        let entry_live: EntryLiveCache = RefCell::new(vec![None; module.funcs.len()]);
        let mut per_function: Vec<PassReport> = vec![PassReport::default(); module.funcs.len()];
        // The stub standing for the function being optimized; each one's storage serves the
        // next.
        let mut stub = Function::new(String::new());
        for &id in call_graph.bottom_up() {
            if wanted.as_ref().is_some_and(|w| !w[id]) {
                continue;
            }
            signature_only_into(&module.funcs[id], &mut stub);
            let mut func = std::mem::replace(&mut module.funcs[id], stub);
            let result;
            (result, storage) = self.run_function(
                module,
                id,
                (&call_graph, &call_effects, &entry_live, &unit_budget),
                &mut func,
                &mut per_function[id.index()],
                (storage, &mut pass_runs),
            );
            stub = std::mem::replace(&mut module.funcs[id], func);
            result?;
        }
        for part in per_function {
            report.merge(part);
        }
        for (position, (pass, runs)) in self.passes.iter().zip(&pass_runs).enumerate() {
            if runs.runs > 0 {
                storage.timings.add_pass_at(position, pass.name(), runs);
            }
        }
        report.timings = std::mem::take(&mut storage.timings);
        report.stats.sort_by_pass(&self.pass_names());
        Ok(report)
    }

    fn run_function(
        &self,
        module: &Module,
        id: FuncId,
        (call_graph, call_effects, entry_live, unit_budget): (
            &CallGraph,
            &CallEffects,
            &EntryLiveCache,
            &UnitBudget,
        ),
        func: &mut Function,
        report: &mut PassReport,
        (storage, pass_runs): (ContextStorage, &mut [Timing]),
    ) -> (Result<(), PassError>, ContextStorage) {
        let mut remarks = Vec::new();
        let mut stats = Stats::default();
        // The function's name, read from its stub in the module (not copied).
        let name: &str = &module.funcs[id].name;
        let mut failure = None;
        let storage = {
            let mut cx = PassContext::with_storage(module, name, &mut remarks, &mut stats, storage);
            cx.set_remarks_enabled(self.remarks);
            cx.set_stats_enabled(self.stats);
            cx.set_timing_enabled(self.time_passes);
            cx.set_call_graph(call_graph);
            cx.set_unit_budget(unit_budget);
            cx.set_call_effects(call_effects);
            cx.set_entry_live_cache(entry_live);
            let too_large = too_large_to_optimize(func, self.max_liveness_words, &mut cx);
            let passes: &[Box<dyn Pass>] = if too_large { &[] } else { &self.passes };
            for (position, pass) in passes.iter().enumerate() {
                let before = self.record_dumps.then(|| print_function(cx.module, func));
                cx.set_pass(pass.name());
                let start = Stopwatch::start(self.time_passes);
                let changed = pass.run(func, &mut cx);
                let elapsed = start.elapsed();
                report.pass_time += elapsed;
                let runs = &mut pass_runs[position];
                runs.runs += 1;
                runs.changed += u64::from(changed);
                runs.time += elapsed;
                if changed {
                    let kept_facts = pass
                        .preserves_facts()
                        .then(|| cx.take_cached_facts())
                        .flatten();
                    let kept_liveness = (pass.preserves_cfg() && pass.preserves_liveness())
                        .then(|| cx.take_cached_liveness())
                        .flatten();
                    if pass.preserves_cfg() {
                        cx.invalidate_dataflow();
                    } else {
                        cx.invalidate();
                    }
                    if let Some(facts) = kept_facts {
                        cx.restore_cached_facts(facts);
                    }
                    if let Some(live) = kept_liveness {
                        if self.verify_each && !liveness_is_current(func, &mut cx, &live) {
                            failure = Some(PassError::StaleAnalysis {
                                pass: pass.name(),
                                function: name.to_string(),
                                analysis: "liveness",
                            });
                            break;
                        }
                        cx.restore_cached_liveness(live);
                    }
                }
                if self.verify_each {
                    if let Err(errors) = verify_after_pass(cx.module, id, func) {
                        failure = Some(PassError::VerifyFailed {
                            pass: pass.name(),
                            function: name.to_string(),
                            errors,
                        });
                        break;
                    }
                }
                if let Some(before) = before {
                    let after = print_function(cx.module, func);
                    let changed = before != after;
                    let diff = if changed && self.record_diffs {
                        unified_diff(&before, &after, pass.name())
                    } else {
                        String::new()
                    };
                    report.dumps.push(crate::PassDump {
                        pass: pass.name(),
                        function: name.to_string(),
                        after,
                        changed,
                        diff,
                    });
                }
            }
            cx.into_storage()
        };
        report.remarks.extend(remarks);
        if report.stats.is_empty() {
            // The function's first counters: moved, not copied.
            report.stats = stats;
        } else {
            report.stats.merge(&stats);
        }
        let result = match failure {
            Some(e) => Err(e),
            None => Ok(()),
        };
        (result, storage)
    }
}

/// Whether `func`'s liveness sets would take more than `max_words` words
/// ([`MAX_LIVENESS_WORDS`]); if so, says so (a missed remark of the `pass-manager` and its
/// `functions_not_optimized` counter).
fn too_large_to_optimize(func: &Function, max_words: usize, cx: &mut PassContext<'_>) -> bool {
    let words = Liveness::set_words(func);
    if words <= max_words {
        return false;
    }
    cx.set_pass("pass-manager");
    cx.stat("functions_not_optimized", 1);
    if let Some(entry) = func.entry() {
        cx.missed_with(func, entry, func.loc, || {
            format!(
                "function not optimized: its liveness sets would take {words} words \
                 ({} blocks), past the bound of {max_words}",
                func.blocks.len()
            )
        });
    }
    true
}

/// Whether `live` is the liveness of `func` as it is now (a fresh computation has the same
/// sets); asked after a pass that kept the CFG, so the cached one is current.
fn liveness_is_current(func: &Function, cx: &mut PassContext<'_>, live: &Liveness) -> bool {
    let cfg = cx.shared_cfg(func);
    Liveness::compute(func, &cfg).same_sets(live, func)
}

/// Verifies `func`, the function `id` of `module` as a pass left it (the module holds its
/// signature meanwhile: [`signature_only_into`]). A pass changes only the function it runs on,
/// so only that function is verified, against the module's signatures and structs; verifying
/// the whole module after every pass of every function was quadratic (`opt --verify-each` on
/// 4,000 two-instruction functions: 82 s). Should a pass change the function's own signature,
/// which its callers rely on, the whole module is verified with the new body in place, so the
/// callers' mismatches are reported. The passes' own unchecked operations are trusted: they
/// are proven.
fn verify_after_pass(module: &Module, id: FuncId, func: &Function) -> Result<(), Vec<VerifyError>> {
    let stub = &module.funcs[id];
    let param_types = |f: &Function| -> Vec<Option<Type>> {
        f.params
            .iter()
            .map(|&p| f.locals.get(p).map(|l| l.ty))
            .collect()
    };
    let same_signature =
        stub.name == func.name && stub.ret == func.ret && param_types(stub) == param_types(func);
    if same_signature {
        verify_function_with(module, func, &VerifyOptions::TRUSTED)
    } else {
        let mut check = module.clone();
        check.funcs[id] = func.clone();
        verify_with(&check, &VerifyOptions::TRUSTED)
    }
}

/// A copy of `func` with its signature (and the locals up to the last parameter) but no body, left in the module while the
/// real function is being transformed.
fn signature_only_into(func: &Function, stub: &mut Function) {
    // `stub` has no blocks or instructions: only name, signature and locals are rewritten,
    // in the storage of the previous function's stub.
    stub.name.clear();
    stub.name.push_str(&func.name);
    stub.params.clear();
    stub.params.extend_from_slice(&func.params);
    stub.ret = func.ret;
    stub.inline = func.inline;
    // Only the parameters' locals are needed to read the signature; copying every local of a
    // large function for every pass would cost more than some passes.
    let needed = func.params.iter().map(|p| p.index() + 1).max().unwrap_or(0);
    stub.locals.clear();
    for data in func.locals.values().take(needed) {
        stub.locals.push(data.clone());
    }
    stub.loc = func.loc;
}

/// A function whose liveness sets would take more than this many 64-bit words
/// ([`Liveness::set_words`]: its blocks times the words of a set over the locals read across
/// blocks) is left as it is, with a missed remark: every pass reads liveness, and a function
/// where thousands of locals stay live across thousands of blocks holds their product in
/// every computation. 16,000 guarded indices read in one loop (96,000 instructions, 16,000
/// blocks × 250 words, 4 M) take `opt -O2` 0.4 s and 160 MB; 32,000 (16 M words) took 1.3 s
/// and 530 MB, and the product grows with the square of the size. At the bound (8 M words,
/// 64 MB a set array) `opt -O2` takes about 0.8 s. Ordinary functions are far below it (the
/// 1,000,000-instruction generated function of docs/benchmarks.md: 437,504 blocks × 1 word).
pub const MAX_LIVENESS_WORDS: usize = 1 << 23;

/// How long [`unified_diff`] looks for the smallest diff before it settles for a correct but
/// larger one. Myers' algorithm costs the lines times the differences, so the diff of a large
/// function a pass rewrote much of grows with the square of its size (`opt F -O2 --diff` on
/// an 80,000-instruction function: 4.1 s, some single diffs over a second; now 1.9 s); the
/// bound keeps `--diff` usable on any input. Below it (every diff of an ordinary function)
/// the diff is the smallest, hence the same on every run; past it, which diff comes out
/// depends on the machine's speed.
pub const DIFF_TIMEOUT: Duration = Duration::from_secs(1);

/// A unified diff of two texts (the smallest one, unless that takes longer than
/// `DIFF_TIMEOUT`; then a correct but larger one).
pub fn unified_diff(before: &str, after: &str, label: &str) -> String {
    similar::TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("before {label}"), &format!("after {label}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{signature_only_into, PassManager};
    use poolopt_ir::{parse, Function};

    #[test]
    fn without_counters_the_pipeline_does_the_same() {
        for module in crate::test_programs::modules() {
            let (mut counted, mut uncounted) = (module.clone(), module);
            let level = || PassManager::for_level(crate::OptLevel::O2).verify_each(false);
            let with = level().run(&mut counted).unwrap();
            let without = level().collect_stats(false).run(&mut uncounted).unwrap();
            assert_eq!(
                poolopt_ir::print_module(&counted),
                poolopt_ir::print_module(&uncounted)
            );
            assert!(without.stats.is_empty());
            assert_eq!(with.timings.passes, without.timings.passes);
        }
    }

    #[test]
    fn each_pass_is_timed_once_per_function_in_pipeline_order() {
        let mut module = parse(
            "fn f(a: i64) -> i64 {\n    var t: i64\nentry:\n    t = copy a\n    ret t\n}\n\
             fn g(a: i64) -> i64 {\n    var r: i64\nentry:\n    r = call f(a)\n    ret r\n}\n\
             fn h() {\nentry:\n    ret\n}\n",
        )
        .unwrap();
        // A pass listed twice shares one record, at its first position.
        let manager = PassManager::from_names(&["copy-prop", "simplify-cfg", "copy-prop"]).unwrap();
        let report = manager.run(&mut module).unwrap();
        let runs: Vec<(&str, u64)> = report
            .timings
            .passes
            .iter()
            .map(|(p, t)| (*p, t.runs))
            .collect();
        assert_eq!(runs, [("copy-prop", 6), ("simplify-cfg", 3)]);
        // `t = copy a; ret t` becomes `ret a` once: one change, in one function.
        assert_eq!(report.timings.passes[0].1.changed, 1);
        // Only the functions an entry reaches run the passes.
        let mut module =
            parse("fn f() {\nentry:\n    ret\n}\nfn g() {\nentry:\n    call f()\n    ret\n}\n")
                .unwrap();
        let root = module.func_by_name("f").unwrap();
        let report = manager.run_reachable(&mut module, &[root]).unwrap();
        assert_eq!(
            report.timings.passes[1],
            ("simplify-cfg", report.timings.passes[1].1)
        );
        assert_eq!(report.timings.passes[1].1.runs, 1);
    }

    #[test]
    fn the_stub_keeps_every_parameter_with_its_type_and_nothing_else() {
        let module = parse(
            "fn f(a: i64, b: i32) -> i64 {\n    var t: i64\nentry:\n    t = copy a\n    ret t\n}\n\
             fn longer_name(x: i64, y: i64, z: i64) {\nentry:\n    ret\n}\n",
        )
        .unwrap();
        // The second stub is written over the first (as the manager reuses it): nothing of
        // the earlier function may remain.
        let mut stub = Function::new(String::new());
        for func in module.funcs.values().rev() {
            signature_only_into(func, &mut stub);
            assert_eq!(stub.name, func.name);
            assert_eq!(stub.params, func.params);
            assert_eq!(stub.ret, func.ret);
            assert_eq!(
                stub.locals.len(),
                func.params.len(),
                "the parameters' locals only"
            );
            for &p in &func.params {
                assert_eq!(stub.locals[p].ty, func.locals[p].ty);
                assert_eq!(stub.locals[p].name, func.locals[p].name);
            }
            assert!(stub.blocks.is_empty() && stub.layout.is_empty());
        }
    }
}
