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

/// A file with more verification errors than a parse reports shows the first
/// `MAX_SHOWN_VERIFY_ERRORS` in source order, and the last one shown says how many more there
/// are; one error more than the bound is still counted, and exactly the bound adds no note.
#[test]
fn verification_errors_are_shown_up_to_a_bound_in_source_order() {
    use poolopt::MAX_SHOWN_VERIFY_ERRORS;
    let refused_lines = |n: usize| {
        let mut src = String::from("fn main(v: vec<i64>) -> i64 {\n    var x: i64\nentry:\n");
        for _ in 0..n {
            src.push_str("    x = get.unchecked v[0]\n");
        }
        src.push_str("    ret x\n}\n");
        match poolopt::parse_and_verify("many.pir", &src) {
            Ok(_) => panic!("`get.unchecked` must be refused in untrusted IR"),
            Err(d) => d,
        }
    };
    let many = refused_lines(5_000);
    assert_eq!(many.0.len(), MAX_SHOWN_VERIFY_ERRORS);
    let lines: Vec<u32> = many.0.iter().map(|d| d.loc.line).collect();
    let first_lines: Vec<u32> = (4..4 + MAX_SHOWN_VERIFY_ERRORS as u32).collect();
    assert_eq!(lines, first_lines, "the first errors, in source order");
    let last = many.0.last().unwrap();
    let hidden = 5_000 - MAX_SHOWN_VERIFY_ERRORS;
    assert_eq!(
        last.notes,
        vec![format!(
            "{hidden} more verification errors not shown (the first {MAX_SHOWN_VERIFY_ERRORS} in source order are)"
        )]
    );
    assert!(many
        .to_string()
        .contains("4980 more verification errors not shown"));
    let one_more = refused_lines(MAX_SHOWN_VERIFY_ERRORS + 1);
    assert!(one_more.0.last().unwrap().notes[0].starts_with("1 more verification error not shown"));
    let at_bound = refused_lines(MAX_SHOWN_VERIFY_ERRORS);
    assert_eq!(at_bound.0.len(), MAX_SHOWN_VERIFY_ERRORS);
    assert!(at_bound.0.iter().all(|d| d.notes.is_empty()));
}
