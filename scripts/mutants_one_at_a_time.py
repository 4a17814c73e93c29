#!/usr/bin/env python3
"""Runs cargo-mutants' mutants of one file one at a time against a test command of your choice.

cargo-mutants 27.1.0 judges a mutant only by the tests of the mutated package, but the pass
cases of the passes crate live in the root package (`tests/pass_cases.rs`). This script takes
the mutants cargo-mutants lists, splices each replacement into its span, runs the test command
in the tree, and restores the file. Run it on a scratch copy of the tree (a git worktree with
its own CARGO_TARGET_DIR), never on a tree you are editing. docs/testing.md §7 has the runs.

    cargo mutants --list --json --workspace -F 'passes/div_check_elim\\.rs' > mutants.json
    scripts/mutants_one_at_a_time.py mutants.json crates/passes/src/passes/div_check_elim.rs out.tsv

Each output line: verdict (caught, MISSED, timeout, unviable), the mutant's name, seconds.
The test command can be changed with MUTANTS_TEST_CMD (the default: the passes crate's unit
tests, case files and reporting tests, the root pass cases and 150 grammar-fuzz programs;
about 10 s a mutant on an idle machine). A mutant already listed in the output file is
skipped, so an interrupted run goes on where it stopped.
"""
import json
import os
import subprocess
import sys
import time

DEFAULT_CMD = (
    "cargo test -q -p poolopt -p poolopt-passes --lib --test pass_cases --test checks"
    " --test reporting --test analyses --test grammar_fuzz"
)


def offset(lines, pos):
    """The character offset of a 1-based (line, column) position."""
    return sum(len(line) + 1 for line in lines[: pos["line"] - 1]) + pos["column"] - 1


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mutants_json, only, out_path = sys.argv[1:4]
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
            original = open(only).read()
            lines = original.split("\n")
            start = offset(lines, m["span"]["start"])
            end = offset(lines, m["span"]["end"])
            with open(only, "w") as f:
                f.write(original[:start] + m["replacement"] + original[end:])
            began = time.time()
            try:
                run = subprocess.run(cmd, shell=True, capture_output=True, timeout=timeout)
                if run.returncode == 0:
                    verdict = "MISSED"
                elif b"error[E" in run.stderr:
                    verdict = "unviable"
                else:
                    verdict = "caught"
            except subprocess.TimeoutExpired:
                verdict = "timeout"
            finally:
                with open(only, "w") as f:
                    f.write(original)
            out.write(f"{verdict}\t{m['name']}\t{time.time() - began:.0f}s\n")
            out.flush()


if __name__ == "__main__":
    main()
