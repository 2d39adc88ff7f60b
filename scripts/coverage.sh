#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Line and branch coverage of src/ per folder, from the gcov counters of a
# build configured with -DPROXIMA_COVERAGE=ON after its tests ran:
#   scripts/coverage.sh BUILD_DIR
# gcovr comes from the project's environment (scripts/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/coverage.sh BUILD_DIR}
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
# Branches the compiler adds for exceptions are not decisions in our code.
# A line of a template counts once, covered when any instance ran it
# (--merge-lines): counted per instance, the narrow phase's pair templates
# made 3,807 source lines into 7,583, most of them instances no query uses.
.venv/bin/gcovr --root . --filter 'src/' --exclude 'src/python/' --exclude-throw-branches --merge-lines \
  --gcov-ignore-parse-errors=negative_hits.warn_once_per_file --json-summary "$summary" "$build" >/dev/null
.venv/bin/python - "$summary" <<'PY'
import collections, json, sys
files = json.load(open(sys.argv[1]))["files"]
folders = collections.OrderedDict()
for f in sorted(files, key=lambda f: f["filename"]):
    parts = f["filename"].split("/")
    folder = "/".join(parts[:2]) if len(parts) > 2 else parts[0]
    t = folders.setdefault(folder, [0, 0, 0, 0])
    t[0] += f["line_covered"]; t[1] += f["line_total"]
    t[2] += f["branch_covered"]; t[3] += f["branch_total"]
total = [sum(t[i] for t in folders.values()) for i in range(4)]
pct = lambda a, b: "%.1f %%" % (100.0 * a / b) if b else "–"
print("| folder | lines | line coverage | branches | branch coverage |")
print("|---|---:|---:|---:|---:|")
for name, t in list(folders.items()) + [("**src/ total**", total)]:
    print("| %s | %d / %d | %s | %d / %d | %s |" % (name, t[0], t[1], pct(t[0], t[1]), t[2], t[3], pct(t[2], t[3])))
# Where tests would add the most: the files with the most lines never run.
print()
print("| file with the most lines not run | not run | line coverage |")
print("|---|---:|---:|")
worst = sorted(files, key=lambda f: f["line_covered"] - f["line_total"])[:12]
for f in worst:
    print("| %s | %d | %s |" % (f["filename"], f["line_total"] - f["line_covered"], pct(f["line_covered"], f["line_total"])))
PY
