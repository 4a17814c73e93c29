//! `opt --remarks=json` and `--remarks-filter`: remarks as JSON objects, one per line (after
//! LLVM's optimization records), and the pass filter.

use super::{suggest, Failure};
use poolopt::passes::pass_names;
use poolopt::Remark;
use serde::Serialize;

/// One remark as JSON. `line` and `column` are `null` where the location is unknown.
#[derive(Serialize)]
pub struct RemarkRecord<'a> {
    pub pass: &'a str,
    /// `applied` or `missed`.
    pub kind: &'a str,
    pub function: &'a str,
    pub block: &'a str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: &'a str,
}

/// The JSON line of `remark`.
pub fn json_line(remark: &Remark) -> String {
    let known = remark.loc.is_known();
    let record = RemarkRecord {
        pass: remark.pass,
        kind: remark.kind.name(),
        function: &remark.function,
        block: &remark.block,
        line: known.then_some(remark.loc.line),
        column: known.then_some(remark.loc.col),
        message: &remark.message,
    };
    serde_json::to_string(&record).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The passes of `--remarks-filter`, each checked to be a pass (with "did you mean").
pub fn check_filter(names: &[String]) -> Result<Vec<&'static str>, Failure> {
    let all = pass_names();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let name = name.trim();
            all.iter().copied().find(|p| *p == name).ok_or_else(|| {
                Failure::usage(format!(
                    "error: --remarks-filter: item {} of {}: unknown pass `{name}`{}; passes \
                     are {}",
                    i + 1,
                    names.len(),
                    suggest::did_you_mean(name, all.iter().copied()),
                    all.join(", ")
                ))
            })
        })
        .collect()
}
