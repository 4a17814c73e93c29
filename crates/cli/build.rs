//! Records the git revision the binary is built from (`POOLOPT_GIT_REVISION`, shown by
//! `poolopt --version` and in the bench fingerprint), with `-modified` appended when tracked
//! files differ from it at build time. Outside a git checkout, or without git, the revision is
//! `unknown`; a packager may set `POOLOPT_GIT_REVISION` to override it.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=POOLOPT_GIT_REVISION");
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let dir = Path::new(&dir);
    let revision = std::env::var("POOLOPT_GIT_REVISION")
        .ok()
        .filter(|r| !r.is_empty())
        .or_else(|| {
            let head = git(dir, &["rev-parse", "HEAD"])?;
            // `git status` succeeds with no output on a clean tree.
            let out = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(["status", "--porcelain", "--untracked-files=no"])
                .output()
                .ok()?;
            let modified = out.status.success() && !out.stdout.is_empty();
            Some(if modified {
                format!("{head}-modified")
            } else {
                head
            })
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=POOLOPT_GIT_REVISION={revision}");

    // Rebuild when HEAD moves: HEAD itself, the branch it points to, and packed refs.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    // ... and when the sources change (the tree may become modified or clean again).
    for source in [
        "../../crates",
        "../../src",
        "../../examples",
        "../../Cargo.toml",
    ] {
        let path = dir.join(source);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    for name in watched {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", &name]) {
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
