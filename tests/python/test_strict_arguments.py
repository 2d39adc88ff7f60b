# SPDX-License-Identifier: BSD-3-Clause
"""Every on/off argument takes True or False (numpy's bools too) and nothing
else: None, a number or a string raises TypeError instead of being read as
its truth value (prefilter=None silently meant off, static=2.5 on). And no
number is a bool: Sphere(True) or threads=True raises TypeError instead of
reading 1, nor is an array of bools, strings or objects, while ints and
numpy's numbers still read as numbers."""
import os
import unittest

import numpy as np

import proxima
import proxima.viz
from helpers import DATA

PANDA = os.path.join(DATA, "robots", "panda")
NOT_FLAGS = [None, 0, 1, 2.5, "yes", "False", [True]]


class StrictArgumentsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        env = proxima.Environment()
        env.add("table", proxima.Box(0.6, 1.0, 0.1), ([0.5, 0.0, 0.3], [1, 0, 0, 0]))
        cls.checker = proxima.SceneChecker(os.path.join(PANDA, "panda.urdf"), os.path.join(PANDA, "panda.srdf"),
                                           environment=env)

    def expect_flag(self, call):
        """call(value) accepts True, False and numpy bools, and refuses the rest."""
        for value in (True, False, np.bool_(True), np.bool_(False)):
            call(value)
        for value in NOT_FLAGS:
            with self.subTest(value=value), self.assertRaises(TypeError):
                call(value)

    def test_check_batch_prefilter(self):
        qs = np.zeros((4, 7))
        self.expect_flag(lambda v: self.checker.check_batch(qs, prefilter=v))

    def test_check_motion_self_pairs(self):
        q0, q1 = np.zeros(7), np.full(7, 0.1)
        self.expect_flag(lambda v: self.checker.check_motion(q0, q1, self_pairs=v))

    def test_world_add_body_static_and_kinematic(self):
        world = proxima.World()
        names = iter(range(100))
        # A body neither static nor kinematic needs a mass.
        mass = lambda v: {} if v is True or v is np.True_ else {"mass": 1.0}
        self.expect_flag(lambda v: world.add_body("a%d" % next(names), proxima.Sphere(0.1), static=v, **mass(v)))
        self.expect_flag(lambda v: world.add_body("b%d" % next(names), proxima.Sphere(0.1), kinematic=v, **mass(v)))

    def test_viz_page_add_body_static(self):
        page = proxima.viz.Page(title="flags")
        names = iter(range(100))
        self.expect_flag(lambda v: page.add_body("ball%d" % next(names), proxima.Sphere(0.1), None, static=v))

    def test_watchdog_pairs(self):
        # Each with the other on: a watchdog with both off watches nothing.
        self.expect_flag(lambda v: proxima.Watchdog(self.checker, self_pairs=v))
        self.expect_flag(lambda v: proxima.Watchdog(self.checker, environment=v))

    def test_no_number_is_a_bool(self):
        q = np.zeros(7)
        for flag in (True, False, np.bool_(True)):
            with self.subTest(flag=flag):
                for call in (lambda: proxima.Sphere(flag), lambda: proxima.Capsule(0.1, flag),
                             lambda: proxima.Box(1.0, flag, 1.0), lambda: self.checker.tolerance(q, flag),
                             lambda: self.checker.check_batch(np.zeros((2, 7)), threads=flag),
                             lambda: proxima.World(dt=flag)):
                    with self.assertRaises(TypeError):
                        call()
        # Ints and numpy's numbers are still numbers.
        self.assertEqual(proxima.Sphere(1).radius, 1.0)
        self.assertEqual(proxima.Sphere(np.float32(0.5)).radius, 0.5)
        self.assertEqual(proxima.Sphere(np.int64(2)).radius, 2.0)
        self.assertEqual(self.checker.tolerance(q, np.float64(0.01)).within, self.checker.tolerance(q, 0.01).within)
        self.assertEqual(len(self.checker.check_batch(np.zeros((3, 7)), threads=np.int64(2)).collide), 3)
        # Floats are not counts.
        with self.assertRaises(TypeError):
            self.checker.check_batch(np.zeros((2, 7)), threads=2.0)

    def test_arrays_hold_numbers_only(self):
        cases = [
            ("qs", lambda v: self.checker.check_batch(v), [[0.0] * 7]),
            ("q", lambda v: self.checker.tolerance(v, 0.0), [0.0] * 7),
            ("points", lambda v: proxima.ConvexPolytope(v), [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
            ("size", lambda v: proxima.Box(v), [1.0, 2.0, 3.0]),
            ("p", lambda v: proxima.Pose(p=v), [0.5, 0.0, 0.0]),
            ("pose_a", lambda v: proxima.distance(proxima.Sphere(0.1), v, proxima.Sphere(0.1), np.eye(4)), np.eye(4)),
        ]
        for name, call, good in cases:
            with self.subTest(argument=name):
                call(good)
                call(np.asarray(good, dtype=np.float32))
                call(np.asarray(good, dtype=np.int64))
                bad = np.asarray(good)
                for wrong in (bad.astype(bool), bad.astype(str), bad.astype(object)):
                    with self.assertRaisesRegex(TypeError, "^%s: expected" % name):
                        call(wrong)
                # A bool among numbers in a list is no number either.
                mixed = np.asarray(good, dtype=float).tolist()
                if isinstance(mixed[0], list):
                    mixed[0][0] = True
                else:
                    mixed[0] = True
                with self.assertRaisesRegex(TypeError, "^%s: expected.*holding a bool" % name):
                    call(mixed)


if __name__ == "__main__":
    unittest.main()
