# SPDX-License-Identifier: BSD-3-Clause
"""The watchdog on the Franka Panda (tests/data/robots/panda) jogging its
shoulder towards a table: it must stop the robot before contact, which a
check at each sample (SceneChecker.distances) confirms; a point cloud is one
channel; a stale feed lowers the speed factor; a sample beyond the URDF's
joint limits or speeds stops naming the joint; bad input raises."""
import math
import os
import re
import unittest

import numpy as np

import proxima
from helpers import DATA

PANDA = os.path.join(DATA, "robots", "panda")
URDF = os.path.join(PANDA, "panda.urdf")
SRDF = os.path.join(PANDA, "panda.srdf")
READY = np.array([0, -math.pi / 4, 0, -3 * math.pi / 4, 0, math.pi / 2, math.pi / 4])
TABLE = proxima.Box(0.6, 1.0, 0.1), ([0.65, 0, 0.15], [1, 0, 0, 0])


def jog(k):
    """The ready pose with the shoulder turned at 0.4 rad/s, sampled every 32 ms."""
    q = READY.copy()
    q[1] += 0.4 * 0.032 * k
    return 0.032 * k, q


def urdf_limit(joint, attr):
    """The attribute of a joint's <limit> in the Panda URDF's text."""
    with open(URDF) as f:
        text = f.read()
    at = text.index('<limit ', text.index('<joint name="%s"' % joint))
    return float(re.search(r'\s%s="([^"]*)"' % attr, text[at:text.index(">", at)]).group(1))


class WatchdogTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        env = proxima.Environment()
        env.add("table", *TABLE)
        cls.checker = proxima.SceneChecker(URDF, SRDF, environment=env)

    def test_stops_a_jog_towards_a_table_before_contact(self):
        dog = proxima.Watchdog(self.checker, tool="panda_hand")
        # Each pair of links the checker checks, then the table.
        self.assertEqual(dog.channels, [f"{a}/{b}" for a, b in self.checker.self_pairs] + ["table"])
        first_stop = None
        for k in range(60):
            t, q = jog(k)
            s = dog.update(t, q)
            self.assertEqual(s.status, "ok")
            if first_stop is None and s.level == "stop":
                first_stop = (k, s)
        self.assertIsNotNone(first_stop)
        k, s = first_stop
        self.assertGreater(k, 0)
        self.assertEqual(s.channel, "table")
        self.assertEqual(s.speed_factor, 0.0)
        self.assertTrue(s.approaching)
        # Stopped ahead of contact: the table is still clear at that sample.
        d = self.checker.distances(jog(k)[1]).environment_distance
        self.assertGreater(d.distance, 0.0)
        self.assertAlmostEqual(s.clearance, min(d.distance, self.checker.distances(jog(k)[1]).self_distance.distance),
                               places=12)

    def test_inside_the_table_pushing_deeper_stops_and_moving_out_is_allowed(self):
        # The shoulder turned on past contact (at 0.906 rad from the ready
        # pose; about 1 cm deep at 0.92 rad, in a table top 0.1 m thick),
        # then on at 0.0625 rad/s.
        inside = READY.copy()
        inside[1] += 0.92
        self.assertEqual(self.checker.distances(inside).environment_distance.distance, 0.0)
        step = np.array([0, 0.002, 0, 0, 0, 0, 0])
        dog = proxima.Watchdog(self.checker, tool="panda_hand")
        deeper = [dog.update(0.032 * k, inside + k * step) for k in range(8)]
        for s in deeper:
            self.assertEqual(s.status, "ok")
            self.assertEqual(s.level, "stop")
            self.assertEqual(s.speed_factor, 0.0)
            self.assertFalse(s.receding)
        # Signed: negative inside, and falling as it pushes deeper.
        self.assertLess(deeper[0].clearance, 0.0)
        for a, b in zip(deeper, deeper[1:]):
            self.assertLess(b.clearance, a.clearance)
        self.assertEqual(deeper[-1].channel, "table")
        # Backing out (the shoulder turned back) is allowed, and said so.
        last = inside + 7 * step
        for k in range(1, 6):
            s = dog.update(0.032 * (7 + k), last - k * step)
            self.assertEqual(s.status, "ok")
            self.assertTrue(s.receding)
            self.assertEqual(s.level, "clear")
            self.assertEqual(s.speed_factor, 1.0)
            self.assertLess(s.clearance, 0.0)

    def test_a_point_cloud_is_one_channel(self):
        xs, ys = np.meshgrid(np.arange(0.35, 0.96, 0.02), np.arange(-0.5, 0.51, 0.02))
        pts = np.column_stack([xs.ravel(), ys.ravel(), np.full(xs.size, 0.18)])
        env = proxima.Environment()
        self.assertGreater(env.add_point_cloud("table_scan", pts, 0.04), 100)
        scene = proxima.SceneChecker(URDF, SRDF, environment=env)
        dog = proxima.Watchdog(scene, self_pairs=False)
        self.assertEqual(dog.channels, ["table_scan"])
        levels = [dog.update(*jog(k)).level for k in range(60)]
        self.assertIn("stop", levels)

    def test_grouped_objects_are_one_channel(self):
        env = proxima.Environment()
        env.add("top", *TABLE, group="desk")
        env.add("leg", proxima.Box(0.05, 0.05, 0.2), ([0.4, 0.45, 0.0], [1, 0, 0, 0]), group="desk")
        env.add("post", proxima.Cylinder(0.05, 1.0), ([-0.5, 0.4, 0.5], [1, 0, 0, 0]))
        dog = proxima.Watchdog(proxima.SceneChecker(URDF, SRDF, environment=env))
        self.assertEqual(dog.channels[-2:], ["desk", "post"])
        self.assertEqual(proxima.Watchdog(proxima.SceneChecker(URDF, SRDF, environment=env), self_pairs=False).channels,
                         ["desk", "post"])
        self.assertEqual(dog.update(*jog(0)).status, "ok")
        # A channel name used twice: the report could not say which it was.
        env.add("desk", proxima.Sphere(0.1), ([0, 2, 0.5], [1, 0, 0, 0]))
        with self.assertRaisesRegex(proxima.Error, "two channels are named 'desk'"):
            proxima.Watchdog(proxima.SceneChecker(URDF, SRDF, environment=env))

    def test_thresholds_by_channel(self):
        near = proxima.Watchdog(self.checker, tool="panda_hand")
        far = proxima.Watchdog(self.checker, tool="panda_hand",
                               thresholds={"table": {"stop": 0.05, "slow": 0.15}, "self": {"warn": 0.05, "slow": 0.03}})
        self.assertEqual(far.thresholds("table"), {"stop": 0.05, "slow": 0.15, "warn": 0.2})
        self.assertEqual(far.thresholds("panda_link5/panda_link7"), {"stop": 0.01, "slow": 0.03, "warn": 0.05})
        # A pair given nothing rests close: its first sample sets its distances.
        first = proxima.Watchdog(self.checker)
        first.update(*jog(0))
        wrist = first.thresholds("panda_link5/panda_link7")
        d = self.checker.distances(READY).self_distance.distance
        self.assertGreater(wrist["warn"], 0.015)
        self.assertLess(wrist["warn"], 0.03)
        self.assertAlmostEqual(wrist["slow"], (wrist["warn"] + wrist["stop"]) / 2, places=12)
        self.assertLessEqual(d, wrist["warn"] + 1e-12)

        def first_stop(dog):
            for k in range(60):
                s = dog.update(*jog(k))
                if s.level == "stop":
                    return k, s
            return None, None

        a_k, a = first_stop(near)
        b_k, b = first_stop(far)
        self.assertIsNotNone(a)
        self.assertIsNotNone(b)
        self.assertEqual(b.channel, "table")
        # Stopped earlier, farther from the table (a sample is 32 ms).
        self.assertLess(b_k, a_k - 3)
        for bad, error, text in [({"tabel": {"stop": 0.02}}, proxima.Error, "no channel is named so"),
                                 ({"table": {"stpo": 0.02}}, ValueError, "unknown key 'stpo'"),
                                 ({"table": {"stop": "2 cm"}}, TypeError, "must be a number"),
                                 ({"table": {"stop": True}}, TypeError, "must be a number"),
                                 ({"table": 0.02}, TypeError, "must be a dict"),
                                 ({"table": {"stop": 0.2}}, proxima.Error, "channel 'table'"),
                                 ({"table": {"stop": float("nan")}}, proxima.Error, "channel 'table'")]:
            with self.assertRaisesRegex(error, text):
                proxima.Watchdog(self.checker, thresholds=bad)
        with self.assertRaisesRegex(ValueError, "no channel 'tabel'"):
            far.thresholds("tabel")

    def test_a_stale_feed_slows_the_robot(self):
        dog = proxima.Watchdog(self.checker)
        s = dog.update(0.0, READY)
        self.assertEqual(s.speed_factor, 1.0)
        self.assertEqual(dog.tick(0.05).speed_factor, 1.0)
        self.assertFalse(dog.tick(0.05).stale)
        late = dog.tick(0.2)
        self.assertTrue(late.stale)
        self.assertLess(late.speed_factor, 1.0)
        self.assertEqual(dog.tick(0.5).speed_factor, 0.0)
        self.assertEqual(late.reason, "stale_feed")
        self.assertEqual(dog.tick(0.05).reason, "none")

    def test_a_sample_beyond_the_urdfs_limits_stops_naming_the_joint(self):
        upper = urdf_limit("panda_joint4", "upper")
        dog = proxima.Watchdog(self.checker)
        s = dog.update(0.0, READY)
        self.assertEqual(s.reason, "none")
        self.assertIsNone(s.joint)
        self.assertIsNone(s.joint_value)
        q = READY.copy()
        q[3] = upper + 0.03  # beyond the 0.02 rad tolerance
        s = dog.update(10.0, q)
        self.assertEqual((s.level, s.speed_factor, s.reason), ("stop", 0.0, "joint_limit"))
        self.assertEqual(s.joint, "panda_joint4")
        self.assertEqual(s.joint_value, q[3])
        self.assertEqual(s.joint_limit, upper)
        self.assertIn("joint_limit", repr(s))
        q[3] = upper + 0.01  # within it
        self.assertEqual(dog.update(20.0, q).reason, "none")
        # panda_joint1 at 1.6 times its velocity limit, then slower again.
        v = urdf_limit("panda_joint1", "velocity")
        # Back at the ready pose: no feed fault (the wrist's pair, resting
        # close, may warn of the elbow's motion carried on).
        back = dog.update(30.0, READY)
        self.assertIn(back.reason, ("none", "clearance"))
        self.assertNotEqual(back.level, "stop")
        fast = READY.copy()
        fast[0] += 1.6 * v * 0.032
        s = dog.update(30.032, fast)
        self.assertEqual((s.level, s.reason, s.joint), ("stop", "joint_speed", "panda_joint1"))
        self.assertAlmostEqual(s.joint_value, 1.6 * v, places=9)
        self.assertEqual(s.joint_limit, v)
        fast[0] += 0.2 * v * 0.032
        self.assertEqual(dog.update(30.064, fast).reason, "none")

    def test_feed_tolerances_are_options_checked_by_name(self):
        q = READY.copy()
        q[3] = urdf_limit("panda_joint4", "upper") + 0.03
        dog = proxima.Watchdog(self.checker, angle_tolerance=0.05)
        self.assertEqual(dog.update(0.0, q).reason, "none")
        for kwargs, name in [({"angle_tolerance": -0.01}, "angle_tolerance"),
                             ({"length_tolerance": float("nan")}, "length_tolerance"),
                             ({"speed_tolerance": 0.5}, "speed_tolerance")]:
            with self.assertRaisesRegex(proxima.Error, name):
                proxima.Watchdog(self.checker, **kwargs)

    def test_times_out_of_order_raise(self):
        dog = proxima.Watchdog(self.checker)
        dog.update(1.0, READY)
        with self.assertRaisesRegex(proxima.Error, "not after the last one"):
            dog.update(0.5, READY)
        with self.assertRaisesRegex(proxima.Error, "before the last sample"):
            dog.tick(0.5)
        self.assertFalse(dog.tick(1.0).stale)
        self.assertEqual(dog.update(1.032, READY).status, "ok")

    def test_bad_input_raises(self):
        with self.assertRaises(proxima.Error):
            proxima.Watchdog(self.checker, stop=0.5, slow=0.1)
        with self.assertRaises(proxima.Error):
            proxima.Watchdog(self.checker, tool="panda_tip")
        with self.assertRaises(ValueError):
            proxima.Watchdog(self.checker, self_pairs=False, environment=False)
        dog = proxima.Watchdog(self.checker)
        with self.assertRaises(ValueError):
            dog.update(0.0, [0.0, 0.1])
        dog.update(0.1, READY)
        with self.assertRaises(proxima.Error):
            dog.update(0.1, READY)  # not after the last sample
        nan = READY.copy()
        nan[2] = float("nan")
        self.assertRaises((proxima.Error, ValueError), dog.update, 0.2, nan)

    def test_a_program_is_followed_and_a_sample_off_it_is_flagged(self):
        def swing(yaw):
            return np.concatenate(([yaw], READY[1:]))

        dog = proxima.Watchdog(self.checker)
        self.assertFalse(dog.has_program)
        dog.set_program([(0.0, swing(0.0)), (2.0, swing(1.0))])
        self.assertTrue(dog.has_program)
        s = dog.update(0.0, swing(0.0))
        self.assertTrue(s.programmed)
        self.assertEqual(s.deviation, 0.0)
        self.assertEqual(s.program_time, 0.0)
        self.assertFalse(s.off_program)
        # On the program's bearing at t = 0.032, the elbow 0.1 rad off it.
        q = swing(0.016)
        q[3] += 0.1
        s = dog.update(0.032, q)
        self.assertAlmostEqual(s.program_time, 0.032, places=9)
        self.assertAlmostEqual(s.deviation, 0.1, places=9)
        self.assertTrue(s.off_program)
        self.assertNotEqual(s.level, "clear")
        # A segment starts at the next sample.
        dog.set_program(to=swing(0.0), speed=0.5)
        s = dog.update(0.064, swing(0.1))
        self.assertEqual(s.program_time, 0.0)
        self.assertEqual(s.deviation, 0.0)
        dog.clear_program()
        s = dog.update(0.096, swing(0.1))
        self.assertFalse(s.programmed)
        self.assertTrue(math.isnan(s.deviation))

    def test_bad_programs_raise_naming_the_field(self):
        dog = proxima.Watchdog(self.checker)
        with self.assertRaisesRegex(proxima.Error, r"waypoints\[1\]\.t: 0 must be after"):
            dog.set_program([(0.0, READY), (0.0, READY)])
        with self.assertRaisesRegex(proxima.Error, r"waypoints\[0\]\.q: has 2 values"):
            dog.set_program([(0.0, [0.0, 0.1])])
        with self.assertRaisesRegex(proxima.Error, "speed: 0 must be"):
            dog.set_program(to=READY, speed=0.0)
        with self.assertRaisesRegex(proxima.Error, r"to\[0\] \(panda_joint1\): 10 is outside"):
            dog.set_program(to=READY + 10, speed=1.0)
        with self.assertRaisesRegex(ValueError, "pair"):
            dog.set_program([(0.0,)])
        with self.assertRaisesRegex(ValueError, "not both"):
            dog.set_program([(0.0, READY)], to=READY, speed=1.0)
        with self.assertRaisesRegex(ValueError, "to and speed"):
            dog.set_program(to=READY)
        with self.assertRaises(proxima.Error):
            proxima.Watchdog(self.checker, program_tolerance=0.3, program_fallback=0.2)
        self.assertFalse(dog.has_program)


if __name__ == "__main__":
    unittest.main()
