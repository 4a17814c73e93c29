//! The text format: print → parse → print is the identity for every program in the repo,
//! the printer emits no trailing or doubled whitespace, and malformed programs get
//! `FILE:LINE:COL: error: ...` diagnostics (snapshot-tested).

mod common;

use common::*;

#[test]
fn print_parse_print_is_identity_for_every_program() {
    let files = pir_files(&["examples", "tests/programs"]);
    assert!(files.len() >= 8, "found only {files:?}");
    for path in files {
        let name = rel(&path);
        let module = load(&name);
        let printed = poolopt::ir::print_module(module.module());
        let reparsed = poolopt::ir::parse(&printed).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reprinted = poolopt::ir::print_module(&reparsed);
        assert_eq!(printed, reprinted, "{name}");
        for line in printed.lines() {
            assert_eq!(
                line,
                line.trim_end(),
                "{name}: trailing whitespace in {line:?}"
            );
            assert!(
                !line.trim_start().contains("  "),
                "{name}: doubled space in {line:?}"
            );
        }
    }
}

#[test]
fn malformed_programs_are_diagnosed() {
    let files = pir_files(&["tests/malformed"]);
    assert!(files.len() >= 20);
    for path in files {
        let name = rel(&path);
        let src = std::fs::read_to_string(&path).unwrap();
        let diags = match poolopt::parse_and_verify(&name, &src) {
            Ok(_) => panic!("{name} should not verify"),
            Err(d) => d,
        };
        let text = diags.to_string();
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("{name}:")) && first.contains(": error: "),
            "{name}: first line is {first:?}"
        );
        let snap = path.file_stem().unwrap().to_string_lossy().to_string();
        insta::assert_snapshot!(format!("diag_{snap}"), text);
    }
}

#[test]
fn workload_ir_snapshot() {
    let module = load("examples/workloads/slot_pool_8.pir");
    insta::assert_snapshot!("slot_pool_8_ir", poolopt::ir::print_module(module.module()));
}
