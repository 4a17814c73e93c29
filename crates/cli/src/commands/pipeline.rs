//! `--passes`: a comma-separated list of pass names and pipeline names (`O0`, `O1`, `O2`,
//! also written `-O1`), expanded in place into the passes to run. Errors name the position of
//! the bad item in the list and suggest the closest name.

use poolopt::passes::{pass_by_name, pass_names, pipeline, Pass};
use poolopt::OptLevel;

/// The pipeline level named by `item` (`O2`, `-O2`, `o2`), if it names one.
fn level_of(item: &str) -> Option<OptLevel> {
    let name = item.strip_prefix('-').unwrap_or(item);
    match name {
        "O0" | "o0" => Some(OptLevel::O0),
        "O1" | "o1" => Some(OptLevel::O1),
        "O2" | "o2" => Some(OptLevel::O2),
        _ => None,
    }
}

/// The passes of `items`, pipelines expanded, in order; or an error message saying which item
/// (1-based) is wrong and what was probably meant.
pub fn resolve(items: &[String]) -> Result<Vec<Box<dyn Pass>>, String> {
    let mut passes = Vec::new();
    for (i, raw) in items.iter().enumerate() {
        let item = raw.trim();
        let position = format!("item {} of {}", i + 1, items.len());
        if item.is_empty() {
            return Err(format!("--passes: {position} is empty"));
        }
        if let Some(level) = level_of(item) {
            passes.extend(pipeline(level));
            continue;
        }
        match pass_by_name(item) {
            Ok(pass) => passes.push(pass),
            Err(_) => {
                let names = pass_names();
                let candidates = names.iter().copied().chain(["O0", "O1", "O2"]);
                return Err(format!(
                    "--passes: {position}: unknown pass `{item}`{}; passes are {}, and the \
                     pipelines O0, O1, O2 (`poolopt passes` lists them)",
                    super::suggest::did_you_mean(item, candidates),
                    names.join(", ")
                ));
            }
        }
    }
    Ok(passes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[&str]) -> Result<Vec<&'static str>, String> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        resolve(&items).map(|p| p.iter().map(|p| p.name()).collect())
    }

    #[test]
    fn pipelines_expand_in_place() {
        let o1: Vec<&str> = pipeline(OptLevel::O1).iter().map(|p| p.name()).collect();
        let mut expected = o1.clone();
        expected.push("scalarize");
        assert_eq!(names(&["-O1", "scalarize"]).unwrap(), expected);
        assert_eq!(names(&["O1"]).unwrap(), o1);
        assert!(names(&["O0"]).unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_position_and_a_suggestion() {
        let e = names(&["O1", "rang-check-fold"]).unwrap_err();
        assert!(e.contains("item 2 of 2"), "{e}");
        assert!(e.contains("did you mean `range-check-fold`?"), "{e}");
        let e = names(&["scalarize", ""]).unwrap_err();
        assert!(e.contains("item 2 of 2 is empty"), "{e}");
    }
}
