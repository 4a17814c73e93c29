//! Shared by the criterion benches: the embedded workload programs and their expected results
//! (examples/workloads), parsed the way an embedding compiler would.

#![allow(dead_code)]

use poolopt::{parse_and_verify, VerifiedModule};

/// A workload program: file name and text.
#[derive(Debug)]
pub struct Program {
    pub name: &'static str,
    pub source: &'static str,
}

pub const PROGRAMS: [Program; 2] = [
    Program {
        name: "slot_pool_8.pir",
        source: include_str!("../../examples/workloads/slot_pool_8.pir"),
    },
    Program {
        name: "slot_pool_128.pir",
        source: include_str!("../../examples/workloads/slot_pool_128.pir"),
    },
];

const EXPECTED: &str = include_str!("../../examples/workloads/expected.txt");

/// One line of expected.txt: `label n rounds result`.
#[derive(Clone, Debug)]
pub struct Case {
    /// `lifo_8`.
    pub label: String,
    /// The entry function (`lifo`).
    pub entry: String,
    /// The program with this slot size.
    pub program: &'static Program,
    pub n: i64,
    pub rounds: i64,
    pub expected: i64,
}

/// Every line of expected.txt, in file order (small sizes first, then reference sizes).
pub fn cases() -> Vec<Case> {
    EXPECTED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 4, "malformed expected.txt line `{line}`");
            let (entry, bytes) = f[0].rsplit_once('_').expect("label is workload_bytes");
            let program = PROGRAMS
                .iter()
                .find(|p| p.name == format!("slot_pool_{bytes}.pir"))
                .expect("a program for every slot size");
            let int = |s: &str| s.parse::<i64>().expect("an integer field");
            Case {
                label: f[0].to_string(),
                entry: entry.to_string(),
                program,
                n: int(f[1]),
                rounds: int(f[2]),
                expected: int(f[3]),
            }
        })
        .collect()
}

/// The smallest (n × rounds) case of every label: the test sizes.
pub fn small_cases() -> Vec<Case> {
    let all = cases();
    let mut small: Vec<Case> = Vec::new();
    for c in all {
        match small.iter_mut().find(|s| s.label == c.label) {
            Some(s) if c.n * c.rounds < s.n * s.rounds => *s = c,
            Some(_) => {}
            None => small.push(c),
        }
    }
    small
}

/// The reference-size case of `label`.
pub fn reference_case(label: &str) -> Case {
    cases()
        .into_iter()
        .filter(|c| c.label == label)
        .max_by_key(|c| c.n * c.rounds)
        .expect("the label is in expected.txt")
}

/// Parses and verifies a program, panicking with the rendered diagnostics on failure.
pub fn load(program: &Program) -> VerifiedModule {
    parse_and_verify(program.name, program.source).unwrap_or_else(|d| panic!("{d}"))
}
