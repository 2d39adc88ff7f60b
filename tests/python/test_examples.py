# SPDX-License-Identifier: BSD-3-Clause
"""Runs every examples/python/*.py as a user would and checks what it prints
against closed forms computed here. An example without a check here fails."""
import glob
import math
import os
import subprocess
import sys
import unittest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python")


def run(name):
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)], capture_output=True, text=True,
                         timeout=120, check=True)
    return out.stdout.splitlines()


def fields(line):
    """'label query value normal x y z status s' -> (label, query, value, normal, status)."""
    t = line.split()
    assert len(t) == 9 and t[3] == "normal" and t[7] == "status", line
    return t[0], t[1], float(t[2]), [float(x) for x in t[4:7]], t[8]


def distance_answers():
    # Spheres of radii 0.3 and 0.2 at (0, 0, 0) and (0.6, 0.8, 0): the gap is the
    # centre distance less both radii, the normal the unit vector from B's centre to A's.
    ca, cb = (0.0, 0.0, 0.0), (0.6, 0.8, 0.0)
    gap = math.dist(ca, cb)
    spheres = gap - 0.3 - 0.2, [(a - b) / gap for a, b in zip(ca, cb)]
    # A 2 m cube centred at the origin (top face z = 1) and a ball of radius 0.5
    # centred at z = 1.25: it reaches 0.25 below the face, out through the top (-z from B to A).
    box = (1.25 - 1.0) - 0.5, [0.0, 0.0, -1.0]
    return [("sphere-sphere", "distance") + spheres, ("box-sphere", "signed_distance") + box]


EXPECTED = {"distance.py": distance_answers}


class Examples(unittest.TestCase):
    def test_every_example_has_a_check(self):
        found = sorted(os.path.basename(p) for p in glob.glob(os.path.join(EXAMPLES, "*.py")))
        self.assertTrue(found)
        self.assertEqual(found, sorted(EXPECTED))

    def test_each_example_prints_the_closed_form(self):
        for name, answers in EXPECTED.items():
            with self.subTest(example=name):
                lines = run(name)
                expected = answers()
                self.assertEqual(len(lines), len(expected))
                for line, (label, query, value, normal) in zip(lines, expected):
                    got = fields(line)
                    self.assertEqual(got[:2], (label, query))
                    self.assertAlmostEqual(got[2], value, delta=1e-9)
                    for g, e in zip(got[3], normal):
                        self.assertAlmostEqual(g, e, delta=1e-9)
                    self.assertEqual(got[4], "ok")


if __name__ == "__main__":
    unittest.main()
