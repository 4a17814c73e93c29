//! The repository's programs, for the unit tests that check a shortcut against its
//! straightforward version on every function the repository has (test builds only).

use poolopt_ir::{Function, Module};
use std::path::{Path, PathBuf};

/// The repository's programs — the examples, the pass cases, the regressions and the check
/// cases — with their paths, in a fixed order; a file that does not parse is skipped. Panics
/// when fewer than 100 are found (a test must not pass on a missing corpus).
pub(crate) fn modules_with_paths() -> Vec<(PathBuf, Module)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut modules = Vec::new();
    let mut dirs = vec![
        root.join("examples"),
        root.join("tests/passes"),
        root.join("tests/regressions"),
        root.join("crates/passes/tests/checks"),
    ];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pir") {
                let src = std::fs::read_to_string(&path).unwrap();
                if let Ok(module) = poolopt_ir::parse(&src) {
                    modules.push((path, module));
                }
            }
        }
    }
    assert!(modules.len() > 100, "{} programs", modules.len());
    modules
}

/// The repository's programs (see [`modules_with_paths`]).
pub(crate) fn modules() -> Vec<Module> {
    modules_with_paths().into_iter().map(|(_, m)| m).collect()
}

/// Every function of the repository's programs (see [`modules_with_paths`]); panics when
/// fewer than 200 are found.
pub(crate) fn functions() -> Vec<Function> {
    let funcs: Vec<Function> = modules()
        .into_iter()
        .flat_map(|m| m.funcs.into_iter().map(|(_, f)| f))
        .collect();
    assert!(funcs.len() > 200, "{} functions", funcs.len());
    funcs
}

/// Every function of the repository's programs after the O2 pipeline (the modules it
/// optimizes without an error): the shapes the passes themselves produce, such as
/// `.unchecked` accesses and inlined bodies, which few source programs hold. Panics when
/// fewer than 200 are found.
pub(crate) fn optimized_functions() -> Vec<Function> {
    let manager = crate::PassManager::for_level(crate::OptLevel::O2);
    let funcs: Vec<Function> = modules()
        .into_iter()
        .filter_map(|mut m| manager.run(&mut m).ok().map(|_| m))
        .flat_map(|m| m.funcs.into_iter().map(|(_, f)| f))
        .collect();
    assert!(funcs.len() > 200, "{} optimized functions", funcs.len());
    funcs
}
