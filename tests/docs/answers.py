# SPDX-License-Identifier: BSD-3-Clause
"""Compares program output with expected answers: numbers within an absolute
tolerance, everything else exactly. Standard library only, so the sanitizer
build (no Python module) can run it too.

    python3 answers.py text EXPECTED ACTUAL    # whitespace-separated tokens
    python3 answers.py jsonl EXPECTED ACTUAL   # one JSON object per line; the
                                               # expected keys must match, the
                                               # answer may carry more
Exits 0 when they agree, else prints each difference and exits 1."""
import json
import math
import sys

TOLERANCE = 1e-9


def _number(token):
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def same_token(expected, actual):
    e, a = _number(expected), _number(actual)
    if e is not None and a is not None:
        return abs(e - a) <= TOLERANCE
    return expected == actual


def text_differences(expected, actual):
    """Line by line, token by token."""
    out = []
    e_lines, a_lines = expected.strip().splitlines(), actual.strip().splitlines()
    if len(e_lines) != len(a_lines):
        out.append("expected %d lines, got %d" % (len(e_lines), len(a_lines)))
    for n, (e, a) in enumerate(zip(e_lines, a_lines), 1):
        et, at = e.split(), a.split()
        if len(et) != len(at) or not all(same_token(x, y) for x, y in zip(et, at)):
            out.append("line %d: expected %r, got %r" % (n, e, a))
    return out


def json_differences(expected, actual, where="answer"):
    """`actual` must hold every key of `expected` with an equal value."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return ["%s: expected an object, got %r" % (where, actual)]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append("%s: no key %r" % (where, key))
            else:
                out += json_differences(value, actual[key], "%s.%s" % (where, key))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return ["%s: expected %r, got %r" % (where, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += json_differences(e, a, "%s[%d]" % (where, i))
        return out
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return [] if expected == actual and type(expected) is type(actual) else [
            "%s: expected %r, got %r" % (where, expected, actual)]
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        return ["%s: expected the number %r, got %r" % (where, expected, actual)]
    return [] if abs(expected - actual) <= TOLERANCE else ["%s: expected %r, got %r" % (where, expected, actual)]


def jsonl_differences(expected, actual):
    e_lines = [l for l in expected.splitlines() if l.strip()]
    a_lines = [l for l in actual.splitlines() if l.strip()]
    out = []
    if len(e_lines) != len(a_lines):
        out.append("expected %d answers, got %d" % (len(e_lines), len(a_lines)))
    for n, (e, a) in enumerate(zip(e_lines, a_lines), 1):
        try:
            answer = json.loads(a)
        except ValueError as error:
            out.append("answer %d is not JSON (%s): %r" % (n, error, a))
            continue
        out += json_differences(json.loads(e), answer, "answer %d" % n)
    return out


def main(argv):
    if len(argv) != 4 or argv[1] not in ("text", "jsonl"):
        sys.exit(__doc__)
    with open(argv[2]) as f:
        expected = f.read()
    with open(argv[3]) as f:
        actual = f.read()
    out = (text_differences if argv[1] == "text" else jsonl_differences)(expected, actual)
    for line in out:
        print("%s: %s" % (argv[2], line))
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
