//! Running the built `poolopt` binary: the exit code and the two output streams of one
//! command, and program text written once to a temporary file the commands can read.

use std::path::PathBuf;
use std::process::Command;

/// What one command printed and how it ended (`code` is `None` when a signal ended it).
#[derive(Clone, Debug)]
pub struct CliOutput {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `bin` (a test's `env!("CARGO_BIN_EXE_poolopt")`) with `args`.
pub fn run_cli(bin: &str, args: &[&str]) -> CliOutput {
    run_cli_with_env(bin, args, &[])
}

/// [`run_cli`] with environment variables set (`Some`) or removed (`None`).
pub fn run_cli_with_env(bin: &str, args: &[&str], env: &[(&str, Option<&str>)]) -> CliOutput {
    let mut cmd = Command::new(bin);
    cmd.args(args);
    for &(name, value) in env {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{bin} does not run: {e}"));
    CliOutput {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes `src` to `<tmp>/poolopt-<tag>-<pid>/<name>` and returns the path. Write each program
/// once per test process (tests run on parallel threads, and a file rewritten while another
/// command reads it is read half-written): keep the path in a `OnceLock`.
pub fn write_program(tag: &str, name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poolopt-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}
