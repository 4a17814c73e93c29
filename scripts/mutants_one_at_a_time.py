#!/usr/bin/env python3
"""Runs cargo-mutants' mutants of one file one at a time against a test command of your choice.

cargo-mutants 27.1.0 judges a mutant only by the tests of the mutated package, but the pass
cases of the passes crate live in the root package (`tests/pass_cases.rs`). This script takes
the mutants cargo-mutants lists, splices each replacement into its span, runs the test command
in the tree, and restores the file. Run it on a scratch copy of the tree (a git worktree with
its own CARGO_TARGET_DIR), never on a tree you are editing. docs/testing.md §7 has the runs.

    cargo mutants --list --json --workspace -F 'passes/div_check_elim\\.rs' > mutants.json
    scripts/mutants_one_at_a_time.py mutants.json crates/passes/src/passes/div_check_elim.rs out.tsv

Each output line: verdict (caught, MISSED, timeout, unviable), the mutant's name, seconds,
and for a caught mutant the stage that caught it.

The test command is a list of stages separated by ` ;; `, run in order until one fails: a
mutant is caught by the first stage that fails, and only a mutant every stage passes is
missed. Cheap stages first: most mutants are caught by the passes crate's own tests, whose
build does not relink the root package's test binaries. The default stages are the passes
crate's unit tests and case files, then its analysis, relevance and reporting tests, then the
root pass cases and 150 grammar-fuzz programs (together what one `cargo test` of all of them
ran before). Change them with MUTANTS_TEST_CMD. A mutant already listed in the output file is
skipped, so an interrupted run goes on where it stopped. `--one MUTANTS_JSON NAME` judges one
mutant by its full name and prints the verdict (to check that a new test kills a survivor;
list the mutants of the edited tree first, as lines move). A stage that runs longer than
MUTANTS_TIMEOUT seconds (400) is killed with everything it started (a mutant that loops
forever must not keep a core busy after the script moved on).
"""
import json
import os
import signal
import subprocess
import sys
import time

DEFAULT_CMD = (
    "cargo test -q -p poolopt-passes --lib --test checks"
    " ;; cargo test -q -p poolopt-passes --test analyses --test relevance --test reporting"
    " ;; cargo test -q -p poolopt --test pass_cases --test grammar_fuzz"
)


def run_stage(cmd, timeout):
    """Runs one stage in a process group of its own; kills the group on timeout."""
    proc = subprocess.Popen(
        cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, stderr


def offset(lines, pos):
    """The character offset of a 1-based (line, column) position."""
    return sum(len(line) + 1 for line in lines[: pos["line"] - 1]) + pos["column"] - 1


def judge(m, only, cmd, timeout):
    """Splices mutant `m` into `only`, runs the stages, restores the file: (verdict, stage)."""
    original = open(only).read()
    lines = original.split("\n")
    start = offset(lines, m["span"]["start"])
    end = offset(lines, m["span"]["end"])
    with open(only, "w") as f:
        f.write(original[:start] + m["replacement"] + original[end:])
    verdict, stage = "MISSED", ""
    try:
        for number, stage_cmd in enumerate(cmd.split(" ;; "), start=1):
            code, stderr = run_stage(stage_cmd, timeout)
            if code != 0:
                verdict = "unviable" if b"error[E" in stderr else "caught"
                stage = f"\tstage {number}"
                break
    except subprocess.TimeoutExpired:
        verdict = "timeout"
    finally:
        with open(only, "w") as f:
            f.write(original)
    return verdict, stage


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--one":
        # --one MUTANTS_JSON NAME: judge one mutant (its full name, as listed) and print the
        # verdict; for checking that a new test kills a survivor.
        mutants = [m for m in json.load(open(args[1])) if m["name"] == args[2]]
        if len(mutants) != 1:
            sys.exit(f"no mutant named {args[2]!r} in {args[1]}")
        m = mutants[0]
        cmd = os.environ.get("MUTANTS_TEST_CMD", DEFAULT_CMD)
        timeout = int(os.environ.get("MUTANTS_TIMEOUT", "400"))
        verdict, stage = judge(m, m["file"], cmd, timeout)
        print(f"{verdict}\t{m['name']}{stage}")
        return
    if len(args) != 3:
        sys.exit(__doc__)
    mutants_json, only, out_path = args
    cmd = os.environ.get("MUTANTS_TEST_CMD", DEFAULT_CMD)
    timeout = int(os.environ.get("MUTANTS_TIMEOUT", "400"))
    mutants = [m for m in json.load(open(mutants_json)) if m["file"] == only]
    done = set()
    if os.path.exists(out_path):
        with open(out_path) as previous:
            done = {line.split("\t")[1] for line in previous if "\t" in line}
    with open(out_path, "a") as out:
        for m in mutants:
            if m["name"] in done:
                continue
            began = time.time()
            verdict, stage = judge(m, only, cmd, timeout)
            out.write(f"{verdict}\t{m['name']}\t{time.time() - began:.0f}s{stage}\n")
            out.flush()


if __name__ == "__main__":
    main()
