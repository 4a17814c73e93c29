//! The built-in workloads: the two workload programs and the expected-results table, embedded
//! in the binary (so `poolopt bench` works from any directory), and the benchmark cases
//! (workload × element size × problem size) built from them.

use super::error::BenchError;
use clap::ValueEnum;
use std::fmt;

/// The slot-pool program with 8-byte slots.
const SLOT_POOL_8: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/workloads/slot_pool_8.pir"
));
/// The slot-pool program with 128-byte slots.
const SLOT_POOL_128: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/workloads/slot_pool_128.pir"
));
/// `label n rounds result` lines, small and reference sizes.
const EXPECTED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/workloads/expected.txt"
));

/// One workload exercise (an entry function of both programs).
#[derive(ValueEnum, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Workload {
    Append,
    Lifo,
    Scattered,
}

impl Workload {
    pub const ALL: [Workload; 3] = [Workload::Append, Workload::Lifo, Workload::Scattered];

    /// The entry function's name.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Append => "append",
            Workload::Lifo => "lifo",
            Workload::Scattered => "scattered",
        }
    }

    /// Pool operations (allocs plus releases) one run performs, over both owners, as the
    /// workload definitions prescribe.
    pub fn operations(self, n: i64, rounds: i64) -> u64 {
        let n = n.max(0) as u64;
        let rounds = rounds.max(0) as u64;
        let per_owner = match self {
            Workload::Append => rounds * n,
            Workload::Lifo => rounds * 2 * n,
            Workload::Scattered => n + rounds * 2 * (n / 2),
        };
        2 * per_owner
    }
}

/// Slot size: which program, which slot type.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum ElemSize {
    B8,
    B128,
}

impl ElemSize {
    pub const ALL: [ElemSize; 2] = [ElemSize::B8, ElemSize::B128];

    pub fn bytes(self) -> u32 {
        match self {
            ElemSize::B8 => 8,
            ElemSize::B128 => 128,
        }
    }

    /// The workload program with this slot size.
    pub fn program(self) -> Program {
        match self {
            ElemSize::B8 => Program {
                name: "slot_pool_8",
                source: SLOT_POOL_8,
            },
            ElemSize::B128 => Program {
                name: "slot_pool_128",
                source: SLOT_POOL_128,
            },
        }
    }
}

/// An embedded workload program.
#[derive(Copy, Clone, Debug)]
pub struct Program {
    /// File stem (`slot_pool_8`); diagnostics name `<name>.pir`.
    pub name: &'static str,
    pub source: &'static str,
}

impl Program {
    pub fn file_name(&self) -> String {
        format!("{}.pir", self.name)
    }
}

/// Problem sizes of workloads.md.
#[derive(ValueEnum, Copy, Clone, PartialEq, Eq, Debug)]
pub enum SizeClass {
    /// The test sizes (a run takes microseconds).
    Small,
    /// The reference sizes (millions of pool operations per run).
    Reference,
}

/// How the workloads' helpers are called, on both sides (after seed 000's call modes).
#[derive(ValueEnum, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum CallMode {
    /// The programs as written: poolopt's inliner decides, native as rustc compiles it.
    #[default]
    Natural,
    /// The helpers (`make*`, `alloc`, `release`) kept out of line on both sides: `noinline` in
    /// poolopt, `#[inline(never)]` in the native reference — code quality at equal call
    /// structure.
    Boundary,
    /// Every non-recursive call inlined on both sides (`inline` on every function;
    /// `#[inline(always)]` on the native helpers).
    Inline,
}

impl CallMode {
    pub fn name(self) -> &'static str {
        match self {
            CallMode::Natural => "natural",
            CallMode::Boundary => "boundary",
            CallMode::Inline => "inline",
        }
    }

    /// Whether a workload function is one of the pool helpers `boundary` keeps out of line.
    pub fn is_helper(function: &str) -> bool {
        function.starts_with("make") || function == "alloc" || function == "release"
    }
}

/// One row of the benchmark: a workload at one slot size and one problem size, in one call
/// mode.
#[derive(Copy, Clone, Debug)]
pub struct Case {
    pub workload: Workload,
    pub elem: ElemSize,
    pub n: i64,
    pub rounds: i64,
    /// The result every implementation must return.
    pub expected: i64,
    pub calls: CallMode,
}

impl Case {
    /// `lifo_8`.
    pub fn label(&self) -> String {
        format!("{}_{}", self.workload.name(), self.elem.bytes())
    }

    pub fn operations(&self) -> u64 {
        self.workload.operations(self.n, self.rounds)
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (n={}, rounds={})", self.label(), self.n, self.rounds)
    }
}

/// One line of the expected-results table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct ExpectedRow {
    workload: Workload,
    elem: ElemSize,
    n: i64,
    rounds: i64,
    result: i64,
}

fn parse_label(label: &str) -> Option<(Workload, ElemSize)> {
    let (name, bytes) = label.rsplit_once('_')?;
    let workload = Workload::ALL.into_iter().find(|w| w.name() == name)?;
    let elem = ElemSize::ALL
        .into_iter()
        .find(|e| e.bytes().to_string() == bytes)?;
    Some((workload, elem))
}

fn parse_expected(text: &str) -> Result<Vec<ExpectedRow>, BenchError> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| BenchError::ExpectedTable {
            line: i + 1,
            message,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [label, n, rounds, result] = fields[..] else {
            return Err(bad(format!(
                "expected `label n rounds result`, found {} fields",
                fields.len()
            )));
        };
        let (workload, elem) =
            parse_label(label).ok_or_else(|| bad(format!("unknown workload `{label}`")))?;
        let int = |s: &str, what: &str| {
            s.parse::<i64>()
                .map_err(|e| bad(format!("{what} `{s}` is not an i64: {e}")))
        };
        rows.push(ExpectedRow {
            workload,
            elem,
            n: int(n, "n")?,
            rounds: int(rounds, "rounds")?,
            result: int(result, "result")?,
        });
    }
    Ok(rows)
}

/// The cases of `workloads` × both slot sizes at `size`, in workload order, 8 bytes first.
///
/// Each workload/size label must have exactly two rows in the table; the one with fewer pool
/// operations is the small size, the other the reference size.
pub fn cases(
    workloads: &[Workload],
    size: SizeClass,
    calls: CallMode,
) -> Result<Vec<Case>, BenchError> {
    let rows = parse_expected(EXPECTED)?;
    let mut cases = Vec::new();
    for &workload in workloads {
        for elem in ElemSize::ALL {
            let mut matching: Vec<&ExpectedRow> = rows
                .iter()
                .filter(|r| r.workload == workload && r.elem == elem)
                .collect();
            if matching.len() != 2 {
                return Err(BenchError::ExpectedTable {
                    line: 0,
                    message: format!(
                        "{}_{} has {} rows; expected one small and one reference row",
                        workload.name(),
                        elem.bytes(),
                        matching.len()
                    ),
                });
            }
            matching.sort_by_key(|r| workload.operations(r.n, r.rounds));
            let row = match size {
                SizeClass::Small => matching[0],
                SizeClass::Reference => matching[1],
            };
            cases.push(Case {
                workload,
                elem,
                n: row.n,
                rounds: row.rounds,
                expected: row.result,
                calls,
            });
        }
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_has_both_sizes_of_every_case() {
        let small = cases(&Workload::ALL, SizeClass::Small, CallMode::Natural).unwrap();
        let reference = cases(&Workload::ALL, SizeClass::Reference, CallMode::Natural).unwrap();
        assert_eq!(small.len(), 6);
        assert_eq!(reference.len(), 6);
        let lifo = reference.iter().find(|c| c.label() == "lifo_8").unwrap();
        assert_eq!((lifo.n, lifo.rounds), (1000, 2000));
        let append = small.iter().find(|c| c.label() == "append_128").unwrap();
        assert_eq!((append.n, append.rounds), (100, 3));
    }

    #[test]
    fn operation_counts_follow_the_definitions() {
        assert_eq!(Workload::Append.operations(100, 3), 600);
        assert_eq!(Workload::Lifo.operations(10, 5), 200);
        assert_eq!(Workload::Scattered.operations(10, 3), 2 * (10 + 3 * 10));
    }

    #[test]
    fn malformed_tables_are_errors() {
        assert!(parse_expected("lifo_8 10 5").is_err());
        assert!(parse_expected("heap_8 10 5 1").is_err());
        assert!(parse_expected("lifo_8 ten 5 1").is_err());
    }
}
