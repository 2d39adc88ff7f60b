# SPDX-License-Identifier: BSD-3-Clause
"""proxima_ray on a local Ray cluster started here (a head and two worker
actors, loopback only): validity labels, distances and trajectory checks in
two scenes, each answer equal to the same call in this process; and the
refusals of bad arguments."""
import os
import unittest

import numpy as np

import proxima
import proxima_ray
from helpers import DATA

PANDA = os.path.join(DATA, "robots", "panda")
UR5 = os.path.join(DATA, "robots", "ur5")


def table():
    env = proxima.Environment()
    env.add("table", proxima.Box(0.6, 1.0, 0.1), ([0.5, 0.0, 0.3], [1, 0, 0, 0]))
    v = np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)])
    t = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                  [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]])
    env.add("crate", proxima.Bvh(proxima.TriangleMesh(v, t)), ([0.0, 0.5, 0.5], [1, 0, 0, 0]))
    return env


class RayClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = proxima_ray.Cluster(workers=2, batch=64, trajectory_batch=5)
        env = table()
        cls.cluster.add_scene("panda", os.path.join(PANDA, "panda.urdf"), os.path.join(PANDA, "panda.srdf"),
                              environment=env)
        cls.cluster.add_scene("ur5", os.path.join(UR5, "ur5.urdf"), os.path.join(UR5, "ur5.srdf"), environment=env)
        cls.local = {"panda": proxima.SceneChecker(os.path.join(PANDA, "panda.urdf"),
                                                   os.path.join(PANDA, "panda.srdf"), environment=env),
                     "ur5": proxima.SceneChecker(os.path.join(UR5, "ur5.urdf"), os.path.join(UR5, "ur5.srdf"),
                                                 environment=env)}

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()

    def configurations(self, name, n, seed):
        lim = self.local[name].joint_limits
        return np.random.default_rng(seed).uniform(lim[:, 0], lim[:, 1], size=(n, len(lim)))

    def test_labels_and_distances_equal_one_process(self):
        for name, seed in (("panda", 1), ("ur5", 2)):
            qs = self.configurations(name, 300, seed)
            qs[17, 1] = np.nan
            labels = self.cluster.check(name, qs)
            local = self.local[name].check_batch(qs)
            np.testing.assert_array_equal(labels.collide, local.collide)
            np.testing.assert_array_equal(labels.status_code, local.status_code)
            filtered = self.cluster.check(name, qs, prefilter=True)
            np.testing.assert_array_equal(filtered.collide, local.collide)
            np.testing.assert_array_equal(filtered.status_code, local.status_code)
            self.assertEqual(labels.status[17], "invalid_input")
            self.assertTrue(labels.collide.any() and not labels.collide.all(), name)
            rows = qs[np.arange(300) != 17][:150]
            d = self.cluster.distances(name, rows)
            np.testing.assert_array_equal(d, [self.local[name].distances(q).distance for q in rows])
            self.assertTrue((d == 0).any() and (d > 0).any(), name)
        self.assertEqual(len(self.cluster.check("panda", np.zeros((0, 7))).collide), 0)

    def test_trajectories_equal_one_process(self):
        rng = np.random.default_rng(3)
        paths = [self.configurations("panda", int(rng.integers(2, 6)), 10 + k) for k in range(40)]
        got = self.cluster.check_trajectories("panda", paths, clearance=0.01)
        self.assertEqual(len(got), 40)
        hits = 0
        for path, t in zip(paths, got):
            want = proxima_ray.TrajectoryCheck("ok", "", False, -1, 1.0)
            for k in range(len(path) - 1):
                m = self.local["panda"].check_motion(path[k], path[k + 1], clearance=0.01)
                if m.status != "ok" or m.collide:
                    want = proxima_ray.TrajectoryCheck(m.status, m.message, bool(m.collide), k, float(m.s))
                    break
            self.assertEqual(t, want)
            hits += t.collide
        self.assertTrue(0 < hits < 40)

    def test_bad_arguments_are_refused_naming_them(self):
        with self.assertRaisesRegex(proxima.Error, "scene: no scene named 'kuka'"):
            self.cluster.check("kuka", np.zeros((1, 7)))
        with self.assertRaisesRegex(proxima.Error, "prefilter: must be True or False, got 1"):
            self.cluster.check("panda", np.zeros((1, 7)), prefilter=1)
        with self.assertRaisesRegex(proxima.Error, r"qs: expected an \(N, 7\) array"):
            self.cluster.check("panda", np.zeros((3, 6)))
        with self.assertRaisesRegex(proxima.Error, "clearance: must be a finite number >= 0"):
            self.cluster.check_trajectories("panda", [np.zeros((2, 7))], clearance=-1.0)
        with self.assertRaisesRegex(proxima.Error, "urdf: cannot read"):
            self.cluster.add_scene("x", os.path.join(PANDA, "no_such.urdf"))
        with self.assertRaisesRegex(proxima.Error, "environment: expected a proxima.Environment"):
            self.cluster.add_scene("x", os.path.join(PANDA, "panda.urdf"), environment=[])
        with self.assertRaisesRegex(proxima.Error, "name: must be a non-empty string"):
            self.cluster.add_scene("", os.path.join(PANDA, "panda.urdf"))
        for key in ("workers", "threads", "batch", "trajectory_batch"):
            with self.assertRaisesRegex(proxima.Error, key + ": must be an integer >= 1"):
                proxima_ray.Cluster(**{key: 0})


class EnvironmentPickleTest(unittest.TestCase):
    def test_environment_round_trips_and_refuses_bad_states(self):
        import pickle
        env2 = pickle.loads(pickle.dumps(table()))
        self.assertEqual(env2.names, ["table", "crate"])
        # Touch links travel with the object: a block around the base, which
        # link0 may touch, collides only without them.
        def base_block(touch):
            e = proxima.Environment()
            e.add("plinth", proxima.Box(0.3, 0.3, 0.1), ([0, 0, 0.05], [1, 0, 0, 0]), touch_links=touch, group="g")
            return e
        urdf = os.path.join(PANDA, "panda.urdf")
        def plinth_pairs(env):
            return proxima.SceneChecker(urdf, environment=env).check(np.zeros(7)).environment_pairs
        self.assertEqual(plinth_pairs(base_block([])), [("panda_link0", "plinth")])
        self.assertEqual(plinth_pairs(pickle.loads(pickle.dumps(base_block(["panda_link0"])))), [])
        checker = proxima.SceneChecker(os.path.join(PANDA, "panda.urdf"), environment=env2)
        near = proxima.SceneChecker(os.path.join(PANDA, "panda.urdf"), environment=table())
        q = np.zeros(7)
        self.assertEqual(checker.distances(q).distance, near.distances(q).distance)
        fresh = proxima.Environment.__new__(proxima.Environment)
        with self.assertRaisesRegex(proxima.Error, "Environment object: cannot unpickle.*geometry"):
            fresh.__setstate__(([("a", 3, None, [], "")],))
        fresh = proxima.Environment.__new__(proxima.Environment)
        with self.assertRaisesRegex(proxima.Error, "Environment: cannot unpickle.*objects must be a list"):
            fresh.__setstate__(("a",))


if __name__ == "__main__":
    unittest.main()
