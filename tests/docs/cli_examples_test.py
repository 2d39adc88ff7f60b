# SPDX-License-Identifier: BSD-3-Clause
"""Pipes each examples/cli/*.jsonl into `proxima query` and compares the
answers with examples/cli/*.expected.jsonl (answers.py: the expected keys,
numbers within 1e-9). The expected answers are closed forms: sphere–sphere
distances, a sphere sunk into a box, a capsule clear of a slab.

    python3 cli_examples_test.py PROXIMA EXAMPLES_CLI_DIR"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers  # noqa: E402


def main(proxima, folder):
    requests = sorted(glob.glob(os.path.join(folder, "*.jsonl")))
    requests = [r for r in requests if not r.endswith(".expected.jsonl")]
    if not requests:
        print("no examples in %s" % folder)
        return 1
    failures = 0
    for path in requests:
        expected_path = path[: -len(".jsonl")] + ".expected.jsonl"
        if not os.path.exists(expected_path):
            print("%s: no expected answers %s" % (path, expected_path))
            failures += 1
            continue
        with open(path) as f:
            run = subprocess.run([proxima, "query"], stdin=f, capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            print("%s: proxima query exited %d: %s" % (path, run.returncode, run.stderr))
            failures += 1
            continue
        with open(expected_path) as f:
            differences = answers.jsonl_differences(f.read(), run.stdout)
        for d in differences:
            print("%s: %s" % (path, d))
        failures += bool(differences)
        print("%s: %s" % (path, "differs" if differences else "agrees"))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
