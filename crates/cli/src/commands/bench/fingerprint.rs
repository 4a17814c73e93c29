//! The environment fingerprint saved beside the results: what was measured (git revision the
//! binary was built from, Cranelift version, build profile), where (CPU, cores, OS), with what
//! (rustc) and when.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// The workspace lock file, to read the Cranelift version this binary was built with.
const CARGO_LOCK: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"));

/// The version of `package` in a Cargo.lock text.
fn locked_version(lock: &str, package: &str) -> Option<String> {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{package}\"") {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(version.trim_end_matches('"').to_string());
        }
    }
    None
}

/// A command's stdout, if it ran and succeeded.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout).ok()
}

/// First line of a command's stdout, if it ran, succeeded and printed something.
fn command_line(program: &str, args: &[&str]) -> Option<String> {
    let text = command_output(program, args)?;
    text.lines().next().map(|l| l.trim().to_string())
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// `YYYY-MM-DDTHH:MM:SSZ` of seconds since the Unix epoch (proleptic Gregorian, UTC).
pub fn utc_timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The git revision this binary was built from (recorded by build.rs; `unknown` outside a
/// git checkout).
pub fn build_revision() -> &'static str {
    env!("POOLOPT_GIT_REVISION")
}

/// `key: value` lines describing this run's environment.
pub fn fingerprint(command: &str) -> Vec<(String, String)> {
    let unknown = || "unknown".to_string();
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let dirty = command_output(
        "git",
        &["-C", repo, "status", "--porcelain", "--untracked-files=no"],
    )
    .map_or(
        "unknown",
        |out| if out.trim().is_empty() { "no" } else { "yes" },
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    vec![
        ("command".into(), command.to_string()),
        ("date".into(), utc_timestamp(now)),
        ("git revision".into(), build_revision().to_string()),
        ("git tree modified".into(), dirty.to_string()),
        (
            "cranelift".into(),
            locked_version(CARGO_LOCK, "cranelift-codegen").unwrap_or_else(unknown),
        ),
        (
            "build profile".into(),
            if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .to_string(),
        ),
        ("cpu".into(), cpu_model().unwrap_or_else(unknown)),
        (
            "cores".into(),
            std::thread::available_parallelism().map_or_else(|_| unknown(), |n| n.to_string()),
        ),
        (
            "os".into(),
            format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        ),
        (
            "rustc".into(),
            command_line("rustc", &["--version"]).unwrap_or_else(unknown),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(951_782_400 + 3661), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn lock_versions() {
        let lock = "[[package]]\nname = \"a\"\nversion = \"1.2.3\"\n";
        assert_eq!(locked_version(lock, "a").as_deref(), Some("1.2.3"));
        assert_eq!(locked_version(lock, "b"), None);
        assert!(locked_version(CARGO_LOCK, "cranelift-codegen").is_some());
    }
}
