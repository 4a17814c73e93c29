//! The opt-in `sparse-bounds-check-elim` against `bounds-check-elim`, on every program of the
//! repository that verifies: both run on the same IR (O2's passes before the check passes), and
//!
//! - every check the fact analysis proves, the sparse prover proves too, except the shapes
//!   listed in [`DENSE_ONLY`] (what the prover does not model yet);
//! - every checked division `div-check-prove` makes unchecked (rule 1 of `div-check-elim`),
//!   the sparse pass makes unchecked too (tallied apart: `divisions`);
//! - where a program names an entry and arguments, the program after the sparse pass gives
//!   the interpreter's outcome of the program before it (the differential test checks the
//!   pass on random programs at every level and in pairs: `tests/differential.rs`).
//!
//! The tally printed (`--nocapture`) is the comparison docs/benchmarks.md reports.

use poolopt::ir::{
    parse, verify_with, Check, Function, InstKind, Module, Terminator, VerifyOptions,
};
use poolopt::passes::analysis::facts::demand::explicit_check_sides;
use poolopt::{OptLevel, PassManager, RunLimits};
use poolopt_test_support::{header, pir_files_below};
use std::path::{Path, PathBuf};

/// `(file, function)` pairs where the fact analysis proves a check the sparse prover does not:
/// none since the prover's distance rule (`x <= y + 5` gives `x - y <= 5`, the shape of
/// `arithmetic_fact_edges.pir`'s `sub_ordered_upper`).
const DENSE_ONLY: &[(&str, &str)] = &[];

/// The O2 passes that run before `bounds-check-elim`.
fn before_checks() -> Vec<&'static str> {
    PassManager::for_level(OptLevel::O2)
        .pass_names()
        .into_iter()
        .take_while(|&p| p != "bounds-check-elim")
        .collect()
}

fn run(module: &mut Module, passes: &[&str]) {
    PassManager::from_names(passes)
        .unwrap()
        .verify_each(true)
        .run(module)
        .unwrap_or_else(|e| panic!("{passes:?}: {e}"));
}

/// Each checked division of `func` with whether `after` made it unchecked.
fn divisions_proved(before: &Function, after: &Function) -> Vec<(String, bool)> {
    let checked = |k: &InstKind| matches!(*k, InstKind::Binary { op, check: Check::Checked, .. } if op.is_division());
    let mut out = Vec::new();
    for &b in &before.layout {
        for &i in &before.blocks[b].insts {
            if checked(before.inst(i)) {
                let name = &before.blocks[b].name;
                out.push((format!("{name}/{i}"), !checked(after.inst(i))));
            }
        }
    }
    out
}

/// Each checked operation and explicit check of `func` (as the check passes found it) with
/// whether `after` (the same function after a check pass) proved it.
fn proved(before: &Function, after: &Function) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for &b in &before.layout {
        let data = &before.blocks[b];
        for &i in &data.insts {
            let checked = |k: &InstKind| match *k {
                InstKind::VecPop { check, .. }
                | InstKind::VecGet { check, .. }
                | InstKind::VecSet { check, .. } => check == Check::Checked,
                _ => false,
            };
            if checked(before.inst(i)) {
                out.push((format!("{}/{}", data.name, i), !checked(after.inst(i))));
            }
        }
        if let Some(Terminator::BrIf {
            then_block,
            else_block,
            ..
        }) = data.terminator
        {
            if explicit_check_sides(before, then_block, else_block).is_some() {
                let folded = matches!(after.blocks[b].terminator, Some(Terminator::Br(_)));
                out.push((format!("{}/explicit", data.name), folded));
            }
        }
    }
    out
}

fn programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    pir_files_below(&[
        root.join("crates/passes/tests/checks"),
        root.join("tests/passes"),
        root.join("tests/regressions"),
        root.join("examples"),
    ])
}

#[test]
fn the_sparse_prover_proves_what_the_fact_analysis_proves() {
    let files = programs();
    let prefix = before_checks();
    let (mut both, mut dense_only, mut sparse_only, mut neither, mut ran) = (0, 0, 0, 0, 0);
    // Divisions: [both, div-check-prove only, sparse only, neither].
    let mut divisions = [0usize; 4];
    let mut unexpected = Vec::new();
    let mut expected_seen = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let Ok(mut module) = parse(&src) else {
            continue;
        };
        if verify_with(&module, &VerifyOptions::TRUSTED).is_err() {
            continue;
        }
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        run(&mut module, &prefix);
        let mut dense = module.clone();
        run(&mut dense, &["bounds-check-elim"]);
        let mut dense_div = module.clone();
        run(&mut dense_div, &["bounds-check-elim", "div-check-prove"]);
        let mut sparse = module.clone();
        run(&mut sparse, &["sparse-bounds-check-elim"]);
        for (id, func) in module.funcs.iter() {
            let dd = divisions_proved(func, &dense_div.funcs[id]);
            let sd = divisions_proved(func, &sparse.funcs[id]);
            for ((what, by_dense), (_, by_sparse)) in dd.iter().zip(&sd) {
                let at = match (by_dense, by_sparse) {
                    (true, true) => 0,
                    (true, false) => {
                        unexpected.push(format!("{file}: {}/{what} (division)", func.name));
                        1
                    }
                    (false, true) => 2,
                    (false, false) => 3,
                };
                divisions[at] += 1;
            }
            let d = proved(func, &dense.funcs[id]);
            let s = proved(func, &sparse.funcs[id]);
            for ((what, by_dense), (_, by_sparse)) in d.iter().zip(&s) {
                match (by_dense, by_sparse) {
                    (true, true) => both += 1,
                    (false, true) => sparse_only += 1,
                    (false, false) => neither += 1,
                    (true, false) => {
                        dense_only += 1;
                        let name = func.name.as_str();
                        if DENSE_ONLY.contains(&(file.as_str(), name)) {
                            expected_seen.push((file.clone(), name.to_string()));
                        } else {
                            unexpected.push(format!("{file}: {name}/{what}"));
                        }
                    }
                }
            }
        }
        if let Some(entry) = header(&src, "entry") {
            let args: Vec<i64> = header(&src, "args")
                .map(|a| a.split(',').filter_map(|x| x.trim().parse().ok()).collect())
                .unwrap_or_default();
            let limits = RunLimits::default();
            let before = poolopt::interp::run(&module, entry, &args, &limits);
            let after = poolopt::interp::run(&sparse, entry, &args, &limits);
            assert_eq!(before, after, "{file}: {entry}{args:?} changed");
            ran += 1;
        }
    }
    eprintln!(
        "sparse vs dense over {} files: both proved {both}, dense only {dense_only}, \
         sparse only {sparse_only}, neither {neither}; {ran} programs run",
        files.len()
    );
    let [div_both, div_dense, div_sparse, div_neither] = divisions;
    eprintln!(
        "divisions: both proved {div_both}, div-check-prove only {div_dense}, \
         sparse only {div_sparse}, neither {div_neither}"
    );
    assert!(files.len() >= 250, "only {} programs", files.len());
    assert!(both >= 300, "only {both} checks proved by both");
    assert!(ran >= 100, "only {ran} programs run");
    assert_eq!(unexpected, Vec::<String>::new(), "proved by the facts only");
    assert_eq!(
        expected_seen.len(),
        DENSE_ONLY.len(),
        "a listed dense-only shape is now proved, or gone: {expected_seen:?}"
    );
}
