//! `poolopt bench` smoke test: the built binary runs a one-sample quick matrix and prints the
//! ratio tables with a header, one row per case and a geometric-mean row.

use std::process::Command;

/// The rows of the markdown table titled `title` (header first, separator skipped).
fn table_rows<'a>(stdout: &'a str, title: &str) -> Vec<Vec<&'a str>> {
    let start = stdout
        .find(&format!("### {title}"))
        .unwrap_or_else(|| panic!("no `{title}` table in:\n{stdout}"));
    stdout[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("| -"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `0.735 (0.721–0.760)` → (0.735, 0.721, 0.760).
fn parse_cell(cell: &str) -> Option<(f64, f64, f64)> {
    let (value, range) = cell.split_once(" (")?;
    let (min, max) = range.strip_suffix(')')?.split_once('–')?;
    Some((value.parse().ok()?, min.parse().ok()?, max.parse().ok()?))
}

#[test]
fn quick_bench_prints_the_ratio_tables() {
    let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args([
            "bench",
            "--quick",
            "--workloads",
            "lifo",
            "--reps",
            "1",
            "--warmups",
            "0",
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr:\n{stderr}\nstdout:\n{stdout}"
    );

    for title in ["Execution: optimized / O0", "JIT total: optimized / O0"] {
        let rows = table_rows(&stdout, title);
        assert_eq!(
            rows[0],
            [
                "workload",
                "bytes",
                "n",
                "rounds",
                "O1 none",
                "O2 none",
                "O1 speed",
                "O2 speed",
                "O2 speed / native"
            ],
            "{title} header"
        );
        assert_eq!(rows.len(), 4, "{title}: header, lifo 8, lifo 128, geomean");
        assert_eq!(rows[1][..4], ["lifo", "8", "10", "5"]);
        assert_eq!(rows[2][..4], ["lifo", "128", "10", "5"]);
        assert_eq!(rows[3][0], "geomean");
        for row in &rows[1..] {
            for cell in &row[4..] {
                let (ratio, min, max) = parse_cell(cell)
                    .unwrap_or_else(|| panic!("{title}: `{cell}` is not `median (min–max)`"));
                assert!(ratio.is_finite() && ratio > 0.0, "{title}: ratio {ratio}");
                assert!(min <= ratio && ratio <= max, "{title}: `{cell}`");
            }
        }
    }
    for title in ["Absolute medians", "Per operation"] {
        assert!(table_rows(&stdout, title).len() > 1, "{title} has rows");
    }
    // Nothing but the tables on stdout: every line is a heading, a caption, a table row or
    // blank.
    assert!(stdout.starts_with("## poolopt bench"));
}

#[test]
fn bad_options_are_usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(["bench", "--quick", "--levels", "O0"])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--levels"));
}

#[test]
fn out_dir_holds_samples_results_and_code() {
    let dir = std::env::temp_dir().join(format!("poolopt-bench-test-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args([
            "bench",
            "--quick",
            "--workloads",
            "append",
            "--levels",
            "O2",
            "--cl-opt",
            "speed",
        ])
        .args(["--reps", "1", "--warmups", "0", "--out"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        "tables.md",
        "samples.csv",
        "results.csv",
        "counters.csv",
        "environment.txt",
        "chart.svg",
        "emitted/slot_pool_8/O0.pir",
        "emitted/slot_pool_128/O2.speed.clif",
        "emitted/slot_pool_128/O2.speed.s",
    ] {
        assert!(dir.join(file).is_file(), "{file} written");
    }
    let samples = std::fs::read_to_string(dir.join("samples.csv")).unwrap();
    assert!(samples.starts_with("workload,bytes,n,rounds,level,cl_opt,phase,sample,ns\n"));
    // 2 cases × (2 JIT configurations × 5 phases + native × 1 phase) × 1 sample.
    assert_eq!(samples.lines().count(), 1 + 2 * (2 * 5 + 1));
    let results = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    for line in results.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[7], f[8], "expected = actual in `{line}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
