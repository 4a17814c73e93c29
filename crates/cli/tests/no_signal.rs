//! The built `poolopt` binary on a few hundred mutated programs (byte flips, truncations, token
//! deletions and swaps of every `.pir` under examples/ and tests/): `check`, `opt` and `run
//! --fuel 100000 --max-memory 1000000` exit with 0, 2 or 3 only, never with a signal or a
//! panic (Rust's panic exit code is 101).
//!
//! `POOLOPT_CLI_MUTANTS=N` sets the number of mutated files (default 240).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pir_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("examples"), root().join("tests")];
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

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn mutate(src: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = src.to_vec();
    if out.is_empty() {
        return out;
    }
    match rng.below(5) {
        0 => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 => out.truncate(rng.below(out.len())),
        2 => {
            // Delete a run of bytes.
            let i = rng.below(out.len());
            let n = 1 + rng.below(8);
            out.drain(i..(i + n).min(out.len()));
        }
        3 => {
            // Swap two whitespace-separated words.
            let text = String::from_utf8_lossy(&out).into_owned();
            let mut words: Vec<&str> = text.split(' ').collect();
            let (a, b) = (rng.below(words.len()), rng.below(words.len()));
            words.swap(a, b);
            out = words.join(" ").into_bytes();
        }
        _ => {
            let i = rng.below(out.len());
            out[i] = [b'0', b'-', b'\n', b'}', b'x', 0xc3][rng.below(6)];
        }
    }
    out
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_poolopt")
}

#[test]
fn mutated_programs_exit_0_2_or_3() {
    let count: usize = std::env::var("POOLOPT_CLI_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(240);
    let files = pir_files();
    assert!(!files.is_empty());
    let dir = std::env::temp_dir().join(format!("poolopt-no-signal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut codes = std::collections::BTreeMap::new();
    for k in 0..count {
        let original = &files[k % files.len()];
        let src = std::fs::read(original).unwrap();
        let mutant = mutate(&src, &mut rng);
        let path = dir.join(format!("m{k}.pir"));
        std::fs::write(&path, &mutant).unwrap();
        let commands: [&[&str]; 3] = [
            &["check"],
            &["opt"],
            &["run", "--fuel", "100000", "--max-memory", "1000000"],
        ];
        for args in commands {
            let out = Command::new(bin())
                .args(args)
                .arg(&path)
                .output()
                .expect("run poolopt");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 2 | 3)),
                "poolopt {args:?} on a mutant of {} exited with {:?}\nstderr: {}\ninput:\n{}",
                original.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&mutant)
            );
            *codes.entry((args[0], code.unwrap())).or_insert(0) += 1;
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir(&dir);
    eprintln!("exit codes: {codes:?}");
    // Some mutants must get through to a run, or this test proves little.
    assert!(
        codes.get(&("run", 0)).copied().unwrap_or(0) + codes.get(&("run", 3)).copied().unwrap_or(0)
            > 0
    );
}
