//! Which shapes and pass decisions generated programs reach: every shape the generator writes
//! (`shapes::SHAPES`, positive forms and near misses), every counter of `--stats` and every kind
//! of sparse-bounds-check-elim and range-check-fold decision (told apart by the reason its remark gives)
//! is a *rule*; [`Coverage`] counts, per rule, how many programs exercised it at O2, so a rule
//! that no generated program reaches shows up as a 0 in the table.

use super::shapes::SHAPES;
use poolopt::passes::{PassReport, RemarkKind};
use std::collections::BTreeMap;
use std::fmt;

/// A decision of a pass, recognized in its remarks: (pass, kind, a piece of the message).
const REMARK_RULES: &[(&str, &str, RemarkKind, &str)] = &[
    (
        "bce: pop removed (len > 0 known)",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "pop check removed",
    ),
    (
        "bce: pop kept (only another vec's length known)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "pop check kept: only len(",
    ),
    (
        "bce: pop kept (nothing proves len > 0)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "pop check kept: nothing proves",
    ),
    (
        "bce: constant index removed (len > k known)",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "index check removed: len(",
    ),
    (
        "bce: constant index kept (negative)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "is negative; the access always traps",
    ),
    (
        "bce: constant index kept (len > k unknown)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "index check kept: nothing proves len(",
    ),
    (
        "bce: index removed (0 <= i < len known)",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "index check removed: 0 <=",
    ),
    (
        "bce: index kept (unbounded origin)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "nothing bounds it",
    ),
    (
        "bce: index kept (bound is another vec)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "is not known to be",
    ),
    (
        "bce: index kept (may be negative)",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "may be negative (only",
    ),
    (
        "bce: kept, index reassigned after the test",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "reassigns the index after the test",
    ),
    (
        "bce: kept, length may have changed",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "may change the length",
    ),
    (
        "bce: kept, fact invalidated",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "invalidates it",
    ),
    (
        "bce: explicit check removed",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "explicit check",
    ),
    (
        "bce: explicit check kept",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "explicit check",
    ),
    (
        "rcf: folded (signed >= / > bound)",
        "range-check-fold",
        RemarkKind::Applied,
        " folded to ",
    ),
    (
        "rcf: not folded (bound may be negative)",
        "range-check-fold",
        RemarkKind::Missed,
        "may be negative",
    ),
    (
        "rcf: not folded (index reassigned)",
        "range-check-fold",
        RemarkKind::Missed,
        "is reassigned in",
    ),
    (
        "struct-split: kept whole (escapes)",
        "struct-split",
        RemarkKind::Missed,
        "not split into fields",
    ),
    (
        "inline: inlined (marked `inline`)",
        "inline",
        RemarkKind::Applied,
        "marked `inline`",
    ),
    (
        "inline: inlined (small)",
        "inline",
        RemarkKind::Applied,
        "; small)",
    ),
    (
        "inline: inlined (called in a loop)",
        "inline",
        RemarkKind::Applied,
        "called in a loop",
    ),
    (
        "inline: inlined (its only call site)",
        "inline",
        RemarkKind::Applied,
        "its only call site",
    ),
    (
        "inline: kept (recursive)",
        "inline",
        RemarkKind::Missed,
        "it is recursive",
    ),
    (
        "inline: kept (`noinline`)",
        "inline",
        RemarkKind::Missed,
        "marked `noinline`",
    ),
    (
        "inline: kept (too large)",
        "inline",
        RemarkKind::Missed,
        "too large",
    ),
    (
        "inline: kept (several call sites, not in a loop)",
        "inline",
        RemarkKind::Missed,
        "sites and not in a loop",
    ),
    (
        "bce: removed, only the sparse prover proves it",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "proved by the sparse prover",
    ),
    (
        "bce: kept, only the fact analysis proves it",
        "sparse-bounds-check-elim",
        RemarkKind::Missed,
        "the fact analysis proves it",
    ),
    (
        "div: check removed (constant divisor)",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "the constant divisor",
    ),
    (
        "div: check removed (the prover bounds the divisor away from 0)",
        "sparse-bounds-check-elim",
        RemarkKind::Applied,
        "division check removed: `",
    ),
    (
        "div: loop versioned (invariant divisor)",
        "div-check-elim",
        RemarkKind::Applied,
        "versioned:",
    ),
    (
        "div: check hoisted into the loop test",
        "div-check-elim",
        RemarkKind::Applied,
        "division check hoisted",
    ),
    (
        "div: kept (divisor assigned in the loop)",
        "div-check-elim",
        RemarkKind::Missed,
        "is assigned in loop",
    ),
    (
        "div: kept (constant divisor fails the test)",
        "div-check-elim",
        RemarkKind::Missed,
        "which fails the test",
    ),
    (
        "div: kept (not in a loop, nothing proves it)",
        "div-check-elim",
        RemarkKind::Missed,
        "not in a loop (with one entry)",
    ),
];

/// The counters the passes report (`poolopt opt --stats`).
const STAT_RULES: &[(&str, &str)] = &[
    ("inline", "calls_inlined"),
    ("inline", "calls_kept"),
    ("sparse-bounds-check-elim", "checks_removed"),
    ("sparse-bounds-check-elim", "checks_kept"),
    ("sparse-bounds-check-elim", "explicit_checks_removed"),
    ("sparse-bounds-check-elim", "explicit_checks_kept"),
    ("sparse-bounds-check-elim", "division_checks_removed"),
    ("range-check-fold", "compares_folded"),
    ("temp-elision", "temps_elided"),
    ("global-copy-prop", "copies_forwarded"),
    ("copy-prop", "copies_propagated"),
    ("branch-threading", "edges_threaded"),
    ("store-load-forward", "loads_forwarded"),
    ("value-numbering", "expressions_numbered"),
    ("dead-local-elim", "insts_removed"),
    ("dead-local-elim", "results_dropped"),
    ("dead-local-elim", "locals_removed"),
    ("simplify-cfg", "branches_simplified"),
    ("simplify-cfg", "blocks_removed"),
    ("simplify-cfg", "blocks_merged"),
    ("scalarize", "locals_scalarized"),
    ("struct-split", "structs_split"),
    ("div-check-elim", "loops_versioned"),
    ("div-check-elim", "checks_hoisted"),
    ("div-check-elim", "checks_kept"),
];

/// Programs per rule.
#[derive(Default, Clone, Debug)]
pub struct Coverage {
    programs: usize,
    counts: BTreeMap<String, usize>,
}

impl Coverage {
    /// Counts the rules one program's pass report shows (each rule at most once per program).
    pub fn record(&mut self, report: &PassReport) {
        self.programs += 1;
        for (name, pass, kind, needle) in REMARK_RULES {
            let hit = report
                .remarks
                .iter()
                .any(|r| r.pass == *pass && r.kind == *kind && r.message.contains(needle));
            if hit {
                *self.counts.entry(name.to_string()).or_default() += 1;
            }
        }
        for (pass, counter) in STAT_RULES {
            if report.stats.get(pass, counter) > 0 {
                *self
                    .counts
                    .entry(format!("stat: {pass} {counter}"))
                    .or_default() += 1;
            }
        }
    }

    /// Counts the generator's shapes one program contains (each at most once per program).
    pub fn record_shapes(&mut self, shapes: &[&'static str]) {
        for shape in shapes {
            *self.counts.entry(format!("shape: {shape}")).or_default() += 1;
        }
    }

    /// Every rule with its count, in table order (rules never reached included, at 0): the
    /// generator's shapes, then the pass decisions, then the counters.
    pub fn rows(&self) -> Vec<(String, usize)> {
        let names = SHAPES
            .iter()
            .map(|s| format!("shape: {s}"))
            .chain(REMARK_RULES.iter().map(|r| r.0.to_string()))
            .chain(STAT_RULES.iter().map(|(p, c)| format!("stat: {p} {c}")));
        names
            .map(|n| {
                let count = self.counts.get(&n).copied().unwrap_or(0);
                (n, count)
            })
            .collect()
    }

    /// The rules no program reached.
    pub fn unreached(&self) -> Vec<String> {
        self.rows()
            .into_iter()
            .filter(|(_, c)| *c == 0)
            .map(|(n, _)| n)
            .collect()
    }
}

impl fmt::Display for Coverage {
    /// A markdown table: rule, programs that reached it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "| rule ({} programs; decisions at O2) | programs |",
            self.programs
        )?;
        writeln!(f, "|---|--:|")?;
        for (name, count) in self.rows() {
            writeln!(f, "| {name} | {count} |")?;
        }
        Ok(())
    }
}
