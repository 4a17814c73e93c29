//! Case files: a program preceded by `; key: value` comment lines (`; entry: main`,
//! `; args: 1,2`, `; expect: trap index_oob`, ...).

use std::path::{Path, PathBuf};

/// The value of header line `; key: value` (the leading comment block only), trimmed.
pub fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines()
        .take_while(|l| l.starts_with(';'))
        .find_map(|l| {
            l.strip_prefix(';')?
                .trim()
                .strip_prefix(key)?
                .strip_prefix(':')
        })
        .map(str::trim)
}

/// The `.pir` files directly in `dir`, sorted; a missing or unreadable directory panics (a
/// suite whose cases are gone must fail, not pass on nothing).
pub fn pir_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    paths.sort();
    paths
}

/// The `.pir` files in `dirs` and every folder below them, sorted; missing folders are skipped
/// (the callers name folders of the repository, and a suite that finds no file at all fails
/// on its own count check).
pub fn pir_files_below(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pir") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// An expected outcome: `value N`, `trap KIND` or `error MESSAGE-PART`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Value(i64),
    Trap(String),
    Error(String),
}

impl Expect {
    /// Parses `value 42`, `trap index_oob` or `error some message`.
    pub fn parse(text: &str) -> Result<Expect, String> {
        let (kind, rest) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
        let rest = rest.trim();
        match kind {
            "value" => rest
                .parse()
                .map(Expect::Value)
                .map_err(|e| format!("`{text}`: {e}")),
            "trap" if !rest.is_empty() => Ok(Expect::Trap(rest.to_string())),
            "error" if !rest.is_empty() => Ok(Expect::Error(rest.to_string())),
            _ => Err(format!(
                "`{text}`: expected `value N`, `trap KIND` or `error MESSAGE`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_from_the_leading_comments_only() {
        let src = "; entry: main\n;args: 1, 2\nfn main() -> i64 {\n; expect: value 1\n";
        assert_eq!(header(src, "entry"), Some("main"));
        assert_eq!(header(src, "args"), Some("1, 2"));
        assert_eq!(header(src, "expect"), None);
        assert_eq!(header(src, "entr"), None);
    }

    #[test]
    fn expectations_parse() {
        assert_eq!(Expect::parse("value -3"), Ok(Expect::Value(-3)));
        assert_eq!(
            Expect::parse("trap pop_empty"),
            Ok(Expect::Trap("pop_empty".into()))
        );
        assert_eq!(
            Expect::parse("error is not allowed"),
            Ok(Expect::Error("is not allowed".into()))
        );
        assert!(Expect::parse("value x").is_err());
        assert!(Expect::parse("trap").is_err());
        assert!(Expect::parse("nothing").is_err());
    }

    #[test]
    fn a_missing_case_directory_fails() {
        let result = std::panic::catch_unwind(|| pir_files(Path::new("/nonexistent/cases")));
        assert!(result.is_err());
    }
}
