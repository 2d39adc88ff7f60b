# SPDX-License-Identifier: BSD-3-Clause
"""Every code block of the README and docs/ that claims a language is real:

* a block introduced by a line ending in "`examples/…`:" is that file, byte
  for byte (the file itself is run by its own test);
* ```cpp and ```cmake blocks must be such files;
* ```json blocks are JSON lines: each line one JSON object, as the commands
  read them (a pasted multi-line object is "not valid JSON"), except in
  docs/scene-format.md, whose blocks are whole scene files; with PROXIMA
  given, every request line ("query" key) of the README and
  docs/design.md and docs/query-protocol.md goes through `proxima query` and
  must not be answered with status "error";
* ```python blocks must compile, ```sh blocks must pass `bash -n`, and the
  repository paths either names (scripts/…, examples/…, tests/data/…) must
  exist.
Blocks without a language (answers, output, fragments) are not checked.

    python3 code_blocks_test.py REPOSITORY_ROOT [PROXIMA]"""
import glob
import json
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
FILE_REF = re.compile(r"`(examples/[^`\s]+)`[^`]*:\s*$")
PATH = re.compile(r"(?<![\w/.$-])((?:scripts|examples|tests/data)/[\w./-]*[\w/])")
DOCUMENT_JSON = {"docs/scene-format.md"}
QUERY_DOCS = {"README.md", "docs/design.md", "docs/query-protocol.md"}


def blocks(text):
    """(language, first line number, body, the non-blank line before the fence)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and not FENCE.match(lines[j]):
            j += 1
        body = "\n".join(l[len(indent):] if l.startswith(indent) else l for l in lines[i + 1:j])
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        yield lang, i + 1, body, before
        i = j + 1


def check(root, proxima):
    problems, checked, requests = [], {}, []
    files = ["README.md", "examples/README.md"] + sorted(os.path.relpath(p, root) for p in
                                                       glob.glob(os.path.join(root, "docs", "*.md")))
    for name in files:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            text = f.read()
        for lang, line, body, before in blocks(text):
            where = "%s:%d" % (name, line)
            if not lang:
                continue
            ref = FILE_REF.search(before)
            if ref:
                path = os.path.join(root, ref.group(1))
                if not os.path.isfile(path):
                    problems.append("%s: names %s, which does not exist" % (where, ref.group(1)))
                else:
                    with open(path, encoding="utf-8") as f:
                        if f.read().rstrip("\n") != body.rstrip("\n"):
                            problems.append("%s: differs from %s" % (where, ref.group(1)))
                checked["file"] = checked.get("file", 0) + 1
                if lang == "json":
                    requests += [(where, l) for l in body.splitlines() if l.strip() and '"query"' in l
                                 and not ref.group(1).endswith(".expected.jsonl")]
                continue
            checked[lang] = checked.get(lang, 0) + 1
            if lang in ("cpp", "cmake"):
                problems.append("%s: a ```%s block must be a file under examples/ (introduce it with "
                                "\"`examples/…`:\")" % (where, lang))
            elif lang == "json" and name in DOCUMENT_JSON:
                try:
                    json.loads(body)
                except ValueError as error:
                    problems.append("%s: not one JSON document: %s" % (where, error))
            elif lang == "json":
                for k, l in enumerate(body.splitlines()):
                    if not l.strip():
                        continue
                    try:
                        value = json.loads(l)
                    except ValueError as error:
                        problems.append("%s+%d: not one line of JSON (%s): %s" % (where, k + 1, error, l[:80]))
                        continue
                    if not isinstance(value, dict):
                        problems.append("%s+%d: a JSON line must be an object" % (where, k + 1))
                    elif "query" in value and name in QUERY_DOCS:
                        requests.append((where, l))
            elif lang == "python":
                try:
                    compile(body, where, "exec")
                except SyntaxError as error:
                    problems.append("%s: not Python: %s" % (where, error))
            elif lang == "sh":
                run = subprocess.run(["bash", "-n"], input=body, capture_output=True, text=True)
                if run.returncode != 0:
                    problems.append("%s: not shell: %s" % (where, run.stderr.strip()))
                for path in PATH.findall(body):
                    if not os.path.exists(os.path.join(root, path)):
                        problems.append("%s: names %s, which does not exist" % (where, path))
            else:
                problems.append("%s: ```%s: a language this check does not know; use ``` for text" % (where, lang))
    if proxima and requests:
        run = subprocess.run([proxima, "query"], input="\n".join(l for _, l in requests) + "\n",
                             capture_output=True, text=True, timeout=300)
        answers = [l for l in run.stdout.splitlines() if l.strip()]
        if run.returncode != 0 or len(answers) != len(requests):
            problems.append("proxima query exited %d with %d answers for %d requests: %s" %
                            (run.returncode, len(answers), len(requests), run.stderr.strip()))
        for (where, _), answer in zip(requests, answers):
            a = json.loads(answer)
            if a.get("status") == "error":
                problems.append("%s: proxima query answers an error: %s" % (where, a.get("message")))
        checked["request answered"] = len(answers)
    return problems, checked


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    problems, checked = check(argv[1], argv[2] if len(argv) == 3 else None)
    for p in problems:
        print(p)
    print("checked: " + ", ".join("%d %s" % (n, k) for k, n in sorted(checked.items())))
    if sum(checked.values()) == 0:
        print("no code block found")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
