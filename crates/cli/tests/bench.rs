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
    for (args, needle) in [
        (&["--metric", "joules"][..], "--metric"),
        (&["--format", "xml"][..], "--format"),
        (&["--reps", "0"][..], "--reps"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
            .args(["bench", "--quick"])
            .args(args)
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(needle),
            "{args:?}"
        );
    }
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

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A quick one-workload matrix: lifo at the small size, O2 only, `speed` only.
const SMALL: [&str; 10] = [
    "--quick",
    "--workloads",
    "lifo",
    "--levels",
    "O2",
    "--cl-opt",
    "speed",
    "--warmups",
    "0",
    "--reps",
];

/// An estimate of the JSON schema: `{value, min, max, samples}` with min ≤ value ≤ max.
fn check_estimate(v: &serde_json::Value, what: &str) {
    let (value, min, max) = (
        v["value"].as_f64().unwrap_or_else(|| panic!("{what}: {v}")),
        v["min"].as_f64().unwrap(),
        v["max"].as_f64().unwrap(),
    );
    assert!(min <= value && value <= max, "{what}: {v}");
    assert!(v["samples"].as_u64().unwrap() >= 1, "{what}: {v}");
}

/// Checks a bench document against the schema of docs/benchmarks.md.
fn check_bench_doc(doc: &serde_json::Value, reps: usize) {
    assert_eq!(doc["schema"], "poolopt-bench/1");
    assert!(doc["metric"]["metric"].is_string() && doc["metric"]["source"].is_string());
    assert!(matches!(
        doc["unit"].as_str(),
        Some("ns" | "instructions" | "cycles")
    ));
    assert_eq!(doc["reps"].as_u64(), Some(reps as u64));
    let fp = doc["fingerprint"].as_object().expect("fingerprint object");
    for key in [
        "git revision",
        "cpu",
        "cores",
        "cranelift",
        "metric",
        "command",
    ] {
        assert!(fp[key].is_string(), "fingerprint has {key}");
    }
    let cases = doc["cases"].as_array().unwrap();
    for c in cases {
        assert!(c["workload"].is_string() && c["expected"].is_i64() && c["n"].is_i64());
    }
    let configs = doc["configs"].as_array().unwrap();
    for c in configs {
        assert!((c["case"].as_u64().unwrap() as usize) < cases.len());
        let native = c["level"] == "native";
        assert_eq!(c["cl_opt"].is_null(), native, "{c}");
    }
    let samples = doc["samples"].as_array().unwrap();
    assert_eq!(samples.len(), configs.len() * reps);
    for s in samples {
        let config = &configs[s["config"].as_u64().unwrap() as usize];
        let case = &cases[config["case"].as_u64().unwrap() as usize];
        assert_eq!(s["result"], case["expected"], "{s}");
        let phase = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {s}"));
        assert_eq!(
            phase("total"),
            phase("parse") + phase("passes") + phase("compile") + phase("run")
        );
    }
    let tables = doc["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for t in tables {
        assert!(matches!(t["phase"].as_str(), Some("run" | "total")));
        let columns = t["columns"].as_array().unwrap().len();
        assert_eq!(t["rows"].as_array().unwrap().len(), cases.len());
        for row in t["rows"].as_array().unwrap() {
            let cells = row["cells"].as_array().unwrap();
            assert_eq!(cells.len(), columns);
            for cell in cells {
                check_estimate(cell, "cell");
            }
        }
        assert_eq!(t["geomean"].as_array().unwrap().len(), columns);
    }
    for target in doc["targets"].as_array().unwrap() {
        assert!(target["id"].is_string() && target["limit"].is_f64());
        assert!(matches!(
            target["verdict"].as_str(),
            Some("met" | "not_met" | "inconclusive" | "not_measured")
        ));
        if !target["figure"].is_null() {
            check_estimate(&target["figure"], "target");
        }
    }
}

#[test]
fn json_format_follows_the_documented_schema() {
    let mut args = SMALL.to_vec();
    args.extend(["2", "--format", "json"]);
    let out = bench(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    check_bench_doc(&doc, 2);
    assert_eq!(doc["metric"]["metric"], "cpu");
    assert_eq!(doc["cases"].as_array().unwrap().len(), 2);
    // O0 and O2 under speed, and native, per case.
    assert_eq!(doc["configs"].as_array().unwrap().len(), 2 * 3);
}

#[test]
fn check_fails_a_target_that_is_not_met() {
    // The O2 pipeline costs a large share of Cranelift's compile (~0.4–0.6 in CPU time, debug
    // and release alike), ten times the passes-share limit of 0.05: NOT met on any machine.
    // (The native target was used here until O2 code came within 1.5x of native: then the
    // verdict depended on the machine, and CI went red on a slower one.)
    let mut args = SMALL.to_vec();
    args.extend(["3", "--check=passes-share"]);
    let out = bench(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("check failed: O2 passes / Cranelift compile"),
        "{stderr}"
    );
    // Two wall-time samples are too few for a verdict: inconclusive, and --check passes.
    let mut args = SMALL.to_vec();
    args.extend(["2", "--check=passes-share"]);
    let out = bench(&args);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let targets = table_rows(&stdout, "Targets");
    let share = targets
        .iter()
        .find(|r| r[1] == "passes-share-speed")
        .expect("passes-share target");
    assert_eq!(share[4], "inconclusive", "{share:?}");
    // Without --check the same run exits 0.
    let mut args = SMALL.to_vec();
    args.push("1");
    assert_eq!(bench(&args).status.code(), Some(0));
    // Unknown target ids are usage errors.
    let mut args = SMALL.to_vec();
    args.extend(["1", "--check=exec-geomaen"]);
    let out = bench(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `exec-geomean`?"));
}

#[test]
fn metrics_name_their_tables_and_unavailable_ones_are_usage_errors() {
    let mut args = SMALL.to_vec();
    args.extend(["1", "--metric", "cpu"]);
    let out = bench(&args);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("## poolopt bench: CPU time (process CPU clock)"),
        "{stdout}"
    );
    let tables = stdout.matches("\n### ").count();
    assert_eq!(
        stdout
            .matches("Metric: CPU time (process CPU clock)")
            .count(),
        tables
    );

    // Cycles need a hardware counter: measured where there is one, a clear error otherwise.
    let mut args = SMALL.to_vec();
    args.extend(["1", "--metric", "cycles"]);
    let out = bench(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("CPU cycles")),
        Some(2) => assert!(
            stderr.contains("--metric cycles needs a hardware counter"),
            "{stderr}"
        ),
        other => panic!("--metric cycles exited {other:?}: {stderr}"),
    }

    // Instructions without counters and without valgrind: exit 2, saying what to install.
    let empty = std::env::temp_dir().join(format!("poolopt-empty-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(["bench", "--quick", "--metric", "instructions"])
        .env("PATH", &empty)
        .env("POOLOPT_BENCH_NO_PERF", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("valgrind") && stderr.contains("not found"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir(&empty);
}

#[test]
fn instructions_under_callgrind_are_exact_and_gate_check() {
    // Needs valgrind (.ci/run installs it). Native and O0/O2 at the small lifo sizes, one
    // sample: six short callgrind runs.
    let mut args: Vec<&str> = SMALL
        .iter()
        .map(|a| if *a == "speed" { "none" } else { a })
        .collect();
    args.extend([
        "2",
        "--metric",
        "instructions",
        "--format",
        "json",
        "--check=passes-share",
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .arg("bench")
        .args(&args)
        .env("POOLOPT_BENCH_NO_PERF", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The O2 pipeline costs about a fifth of Cranelift's compile in instructions, so the
    // passes-share target (≤ 0.05) is NOT met: exit 4, deterministically.
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    check_bench_doc(&doc, 2);
    assert_eq!(doc["metric"]["source"], "callgrind");
    assert_eq!(doc["unit"], "instructions");
    for s in doc["samples"].as_array().unwrap() {
        assert!(s["run"].as_u64().unwrap() > 0, "{s}");
    }
    // Two samples of the same configuration agree to 0.5 % (measured: up to ~0.2 % in the run
    // phase at these sizes, ~100 instructions of 50,000: hash seeds and allocator state).
    for t in doc["tables"].as_array().unwrap() {
        for row in t["rows"].as_array().unwrap() {
            for cell in row["cells"].as_array().unwrap() {
                let (min, max) = (cell["min"].as_f64().unwrap(), cell["max"].as_f64().unwrap());
                assert!((max - min) / max < 5e-3, "{cell}");
            }
        }
    }
}

#[test]
fn baseline_compares_and_refuses_other_workloads() {
    let dir = std::env::temp_dir().join(format!("poolopt-baseline-{}", std::process::id()));
    let base = dir.join("A");
    let mut args = SMALL.to_vec();
    args.extend(["2", "--out", base.to_str().unwrap()]);
    let out = bench(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(base.join("bench.json")).unwrap()).unwrap();
    check_bench_doc(&saved, 2);

    let mut args = SMALL.to_vec();
    args.extend(["2", "--baseline", base.to_str().unwrap()]);
    let out = bench(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = table_rows(&stdout, "Against the baseline: execution, new / old");
    assert_eq!(
        rows[0],
        [
            "workload",
            "bytes",
            "level",
            "cl_opt",
            "old ns",
            "new ns",
            "new / old",
            "change"
        ]
    );
    // lifo 8 and 128, each at O0, O2 and native.
    assert_eq!(rows.len(), 1 + 2 * 3);
    for row in &rows[1..] {
        assert!(parse_cell(row[6]).is_some(), "{row:?}");
        // Two samples a side: a change is at most a suspicion (`?`).
        assert!(
            matches!(row[7], "smaller?" | "LARGER?" | "no change"),
            "{row:?}"
        );
    }
    assert!(table_rows(&stdout, "Against the baseline: JIT total, new / old").len() > 1);

    // A changed expected checksum, a changed size and another metric are refused before
    // anything runs.
    let refuse = |edit: &dyn Fn(&mut serde_json::Value), needle: &str| {
        let mut doc = saved.clone();
        edit(&mut doc);
        let edited = dir.join("edited");
        std::fs::create_dir_all(&edited).unwrap();
        std::fs::write(edited.join("bench.json"), doc.to_string()).unwrap();
        let mut args = SMALL.to_vec();
        args.extend(["1", "--baseline", edited.to_str().unwrap()]);
        let out = bench(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
        assert!(out.stdout.is_empty());
    };
    refuse(
        &|d| d["cases"][0]["expected"] = serde_json::json!(12345),
        "lifo_8: expected checksum differs (baseline 12345",
    );
    refuse(
        &|d| d["cases"][1]["n"] = serde_json::json!(11),
        "lifo_128: workload size differs",
    );
    refuse(
        &|d| d["metric"] = serde_json::json!({"metric": "wall", "source": "clock"}),
        "the baseline measured wall time (clock)",
    );
    // A missing baseline is a usage error too.
    let missing = dir.join("missing");
    let mut args = SMALL.to_vec();
    args.extend(["1", "--baseline", missing.to_str().unwrap()]);
    assert_eq!(bench(&args).status.code(), Some(2));

    // Another machine is compared, with a loud warning.
    let mut doc = saved.clone();
    doc["fingerprint"]["cpu"] = serde_json::json!("Some Other CPU");
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("bench.json"), doc.to_string()).unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["1", "--baseline", other.to_str().unwrap()]);
    let out = bench(&args);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("WARNING: the baseline ran on another machine"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("**WARNING: the machines differ**"));
    let _ = std::fs::remove_dir_all(&dir);
}
