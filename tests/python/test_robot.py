# SPDX-License-Identifier: BSD-3-Clause
"""The Franka Panda (tests/data/robots/panda) in a SceneChecker: forward
kinematics against Franka's published DH parameters, floor distances
against the collision meshes' lowest vertices (read here with a few lines of
Python, not proxima's reader), the folded poses the C++ robot tests list as
colliding, the batched check against single checks, and bad input."""
import math
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import numpy as np

import proxima
from helpers import DATA

PANDA = os.path.join(DATA, "robots", "panda")
URDF = os.path.join(PANDA, "panda.urdf")
SRDF = os.path.join(PANDA, "panda.srdf")
READY = [0, -math.pi / 4, 0, -3 * math.pi / 4, 0, math.pi / 2, math.pi / 4]


def dh(a, d, alpha, theta):
    """Craig's convention, as Franka publishes it: RotX(alpha) TransX(a) RotZ(theta) TransZ(d)."""
    ca, sa, ct, st = math.cos(alpha), math.sin(alpha), math.cos(theta), math.sin(theta)
    return np.array([[ct, -st, 0, a], [st * ca, ct * ca, -sa, -d * sa], [st * sa, ct * sa, ca, d * ca], [0, 0, 0, 1]])


def origin_matrix(origin):
    """URDF <origin xyz rpy>: fixed-axis roll, pitch, yaw, R = Rz(y) Ry(p) Rx(r)."""
    m = np.eye(4)
    if origin is None:
        return m
    r, p, y = map(float, origin.get("rpy", "0 0 0").split())
    rx = np.array([[1, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]])
    ry = np.array([[math.cos(p), 0, math.sin(p)], [0, 1, 0], [-math.sin(p), 0, math.cos(p)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    m[:3, :3] = rz @ ry @ rx
    m[:3, 3] = list(map(float, origin.get("xyz", "0 0 0").split()))
    return m


def collision_vertices():
    """Link name -> (N, 3) vertices of its collision meshes in the link frame."""
    out = {}
    for link in ET.parse(URDF).getroot().iter("link"):
        for col in link.iter("collision"):
            uri = col.find("geometry/mesh").get("filename")
            path = os.path.join(PANDA, uri[len("package://"):])
            with open(path) as f:
                v = np.array([list(map(float, line.split()[1:4])) for line in f if line.startswith("v ")])
            o = origin_matrix(col.find("origin"))
            v = v @ o[:3, :3].T + o[:3, 3]
            name = link.get("name")
            out[name] = np.vstack([out[name], v]) if name in out else v
    return out


class RobotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.panda = proxima.SceneChecker(URDF, SRDF)
        cls.meshes = collision_vertices()

    def lowest_z(self, q):
        poses = self.panda.link_poses(q)
        return {name: float((v @ poses[name].R.T + poses[name].p)[:, 2].min()) for name, v in self.meshes.items()}

    def test_model_layout(self):
        p = self.panda
        self.assertEqual(p.dof, 7)
        self.assertEqual(p.joint_names, ["panda_joint%d" % i for i in range(1, 8)])
        self.assertIn("panda_hand", p.link_names)
        self.assertEqual(p.joint_limits.shape, (7, 2))
        self.assertEqual(tuple(p.joint_limits[3]), (-3.1416, 0.0873))
        self.assertGreater(len(p.self_pairs), 5)
        self.assertNotIn(("panda_link0", "panda_link1"), p.self_pairs)  # adjacent

    def test_forward_kinematics_matches_published_dh(self):
        a = [0, 0, 0, 0.0825, -0.0825, 0, 0.088]
        d = [0.333, 0, 0.316, 0, 0.384, 0, 0]
        alpha = [0, -math.pi / 2, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2, math.pi / 2]
        rng = np.random.default_rng(7)
        for k in range(10):
            q = np.zeros(7) if k == 0 else rng.uniform(-2.8, 2.8, size=7)
            poses = self.panda.link_poses(q)
            acc = np.eye(4)
            for i in range(8):
                acc = acc @ (dh(a[i], d[i], alpha[i], q[i]) if i < 7 else dh(0, 0.107, 0, 0))
                # The URDF writes pi/2 as 1.57079632679, 5e-12 short.
                np.testing.assert_allclose(poses["panda_link%d" % (i + 1)].matrix(), acc, atol=1e-10)

    def test_floor_distance_is_the_lowest_mesh_vertex(self):
        for q in [READY, [0.3, 0.4, -0.2, -2.0, 0.5, 2.5, 0.0]]:
            lowest = self.lowest_z(q)
            env = proxima.Environment()
            env.add("floor", proxima.Halfspace([0, 0, 1], -0.05))
            scene = proxima.SceneChecker(URDF, SRDF, environment=env)
            d = scene.distances(q).environment_distance
            self.assertEqual(d.status, "ok")
            link = min(lowest, key=lowest.get)
            self.assertAlmostEqual(d.distance, lowest[link] + 0.05, places=9)
            self.assertEqual((d.link, d.other), (link, "floor"))
            self.assertAlmostEqual(d.point_other[2], -0.05, places=12)
            # Raise the floor 1 cm above the lowest vertex: exactly the links reaching below it collide.
            height = lowest[link] + 0.01
            env.add("raised", proxima.Halfspace([0, 0, 1], height))
            hits = {pair for pair in scene.check(q).environment_pairs if pair[1] == "raised"}
            self.assertEqual(hits, {(name, "raised") for name, z in lowest.items() if z <= height})

    def test_motion_check_meets_a_wall_where_the_farthest_vertex_does(self):
        q0 = np.array(READY)
        q1 = q0 + np.array([0.0, 0.9, 0.0, 0.4, 0.0, -0.3, 0.0])  # the shoulder pitches forward

        def farthest(s):  # the largest x of any collision-mesh vertex at q(s)
            poses = self.panda.link_poses(q0 + s * (q1 - q0))
            return max(float((v @ poses[n].R.T + poses[n].p)[:, 0].max()) for n, v in self.meshes.items())

        wall = farthest(0.6)  # the solid x >= wall, reached at s = 0.6 or earlier
        self.assertGreater(wall, farthest(0.0) + 0.05)
        env = proxima.Environment()
        env.add("wall", proxima.Halfspace([-1, 0, 0], -wall))
        scene = proxima.SceneChecker(URDF, SRDF, environment=env)
        m = scene.check_motion(q0, q1, self_pairs=False)
        self.assertEqual(m.status, "ok")
        self.assertTrue(m.collide)
        self.assertEqual(m.other, "wall")
        self.assertGreater(m.s, 0.0)
        self.assertLessEqual(m.s, 0.6)
        gap = wall - farthest(m.s)
        self.assertGreaterEqual(gap, -1e-9)
        self.assertLessEqual(gap, 1e-4 + 1e-9)  # the default accuracy
        for k in range(200):  # no earlier contact
            self.assertGreater(wall - farthest(m.s * k / 200), -1e-9)
        back = scene.check_motion(q0, q0 - 0.3 * (q1 - q0), self_pairs=False)  # away from the wall
        self.assertEqual((back.status, back.collide, back.s), ("ok", False, 1.0))
        bad = scene.check_motion(q0, q1, clearance=-1.0)
        self.assertEqual(bad.status, "invalid_input")
        self.assertIn("clearance", bad.message)
        with self.assertRaises(ValueError):
            scene.check_motion(q0[:6], q1)

    def test_ready_pose_is_free_and_folded_poses_collide_with_the_listed_pairs(self):
        r = self.panda.check(READY)
        self.assertEqual((r.status, r.collide), ("ok", False))
        self.assertGreater(self.panda.distances(READY).self_distance.distance, 0.0)
        folded = {(0, 0, 0, -2.5, 0, 0, 0): {("panda_link5", "panda_link7"), ("panda_link5", "panda_hand"),
                                             ("panda_link5", "panda_rightfinger")},
                  (0, 0.5, 0, -3.0, 0, 2.5, 0): {("panda_link0", "panda_hand"), ("panda_link0", "panda_rightfinger")}}
        for q, pairs in folded.items():
            r = self.panda.check(q)
            self.assertEqual(r.status, "ok")
            self.assertEqual(set(r.self_pairs), pairs)
            self.assertEqual(r.environment_pairs, [])
            d = self.panda.distances(q).self_distance
            self.assertEqual(d.distance, 0.0)
            self.assertIn((d.link, d.other), pairs)
            t = self.panda.tolerance(q, 0.0)
            self.assertTrue(t.within and t.self_pair)

    def test_a_robot_from_urdf_and_srdf_text_is_the_robot_from_its_files(self):
        with open(URDF) as f:
            urdf = f.read()
        with open(SRDF) as f:
            srdf = f.read()
        text = proxima.SceneChecker.from_xml(urdf, srdf, base_dir=PANDA)
        self.assertEqual(text.joint_names, self.panda.joint_names)
        for q in (READY, (0, 0, 0, -2.5, 0, 0, 0), (0, 0.5, 0, -3.0, 0, 2.5, 0)):
            a, b = text.check(q), self.panda.check(q)
            self.assertEqual((a.collide, sorted(a.self_pairs)), (b.collide, sorted(b.self_pairs)))
            self.assertEqual(text.distances(q).self_distance.distance, self.panda.distances(q).self_distance.distance)
        # Without the SRDF, pairs it disables are checked again.
        bare = proxima.SceneChecker.from_xml(urdf, base_dir=PANDA)
        self.assertGreaterEqual(len(bare.check((0, 0, 0, -2.5, 0, 0, 0)).self_pairs), 3)
        # Errors name the text and the line; meshes resolve against base_dir.
        with self.assertRaisesRegex(ValueError, "urdf_xml"):
            proxima.SceneChecker.from_xml("<robot name='r'><link name='a'/>", base_dir=PANDA)
        with self.assertRaisesRegex(ValueError, "meshes"):
            proxima.SceneChecker.from_xml(urdf, base_dir="/nonexistent")

    def test_objects_added_or_swapped_after_a_query_count(self):
        # The checker prepares its environment once and again only when it
        # changes: an object added (or a whole environment swapped in) after
        # a query must be seen by every later query.
        env = proxima.Environment()
        env.add("far", proxima.Sphere(0.1), ((3.0, 0.0, 0.5), (1, 0, 0, 0)))
        scene = proxima.SceneChecker(URDF, SRDF, environment=env)
        self.assertFalse(scene.check(READY).collide)
        far = scene.distances(READY).environment_distance.distance
        self.assertGreater(far, 2.0)
        env.add("around the hand", proxima.Box(0.6, 0.6, 0.6), ((0.3, 0.0, 0.6), (1, 0, 0, 0)))
        self.assertEqual(scene.check(READY).environment_pairs[0][1], "around the hand")
        self.assertEqual(scene.distances(READY).environment_distance.distance, 0.0)
        self.assertTrue(scene.tolerance(READY, 0.0).within)
        self.assertTrue(scene.check_batch(np.array([READY])).collide[0])
        q1 = list(READY)
        q1[0] += 0.1
        self.assertTrue(scene.check_motion(READY, q1).collide)
        scene.environment = proxima.Environment()
        self.assertFalse(scene.check(READY).collide)
        self.assertFalse(scene.distances(READY).environment_distance.found)
        self.assertFalse(scene.check_motion(READY, q1).collide)

    def test_touch_links_take_their_pairs_out(self):
        hand = self.panda.link_poses(READY)["panda_hand"]
        centre = hand.apply([[0.0, 0.0, 0.06]])[0]
        def scene(touch):
            env = proxima.Environment()
            env.add("block", proxima.Box(0.12, 0.12, 0.16), (centre, hand.q), touch_links=touch)
            return proxima.SceneChecker(URDF, SRDF, environment=env)
        links = sorted({link for link, _ in scene([]).check(READY).environment_pairs})
        self.assertIn("panda_hand", links)
        self.assertEqual(scene(links).check(READY).environment_pairs, [])
        kept = links[0]
        self.assertEqual(scene(links[1:]).check(READY).environment_pairs, [(kept, "block")])
        bad = scene(["panda_hnd"]).check(READY)
        self.assertEqual(bad.status, "invalid_input")
        self.assertIn("touch link 'panda_hnd' is not a link of robot 'panda'", bad.message)

    def test_attached_objects_move_with_their_link(self):
        rod = proxima.Capsule(0.015, 0.2)
        held = self.panda.attach("rod", "panda_hand", rod, ([0, 0, 0.2], [1, 0, 0, 0]),
                                 touch_links=["panda_leftfinger", "panda_rightfinger"])
        self.assertIn("rod", held.link_names)
        self.assertNotIn("rod", self.panda.link_names)
        self.assertEqual(held.dof, self.panda.dof)
        hand = self.panda.link_poses(READY)["panda_hand"]
        pose = held.link_poses(READY)["rod"]
        tip = hand.apply([[0.0, 0.0, 0.3]])[0]
        np.testing.assert_allclose(pose.apply([[0.0, 0.0, 0.1]])[0], tip, atol=1e-12)
        # A small ball at the rod's tip: only the held rod reaches it.
        env = proxima.Environment()
        env.add("ball", proxima.Sphere(0.01), (tip + [0.02, 0, 0], [1, 0, 0, 0]))
        self.panda.environment = env
        try:
            self.assertFalse(self.panda.check(READY).collide)
            held = self.panda.attach("rod", "panda_hand", rod, ([0, 0, 0.2], [1, 0, 0, 0]))
            self.assertEqual(held.check(READY).environment_pairs, [("rod", "ball")])
            env = proxima.Environment()
            env.add("ball", proxima.Sphere(0.01), (tip + [0.03, 0, 0], [1, 0, 0, 0]))
            held.environment = env
            d = held.distances(READY).environment_distance
            self.assertAlmostEqual(d.distance, 0.03 - 0.015 - 0.01, places=9)
        finally:
            self.panda.environment = proxima.Environment()
        with self.assertRaises(proxima.Error) as e:
            self.panda.attach("rod", "panda_thumb", rod)
        self.assertIn("link 'panda_thumb'", str(e.exception))
        with self.assertRaises(proxima.Error):
            self.panda.attach("panda_hand", "panda_hand", rod)

    def test_point_cloud_cubes_are_the_occupied_cells(self):
        rng = np.random.default_rng(11)
        pts = rng.uniform(-0.3, 0.3, size=(5000, 3)) * [1.0, 1.0, 0.05] + [0.4, 0.0, 0.5]
        voxel = 0.03
        cells, counts = np.unique(np.floor(pts / voxel).astype(np.int64), axis=0, return_counts=True)
        env = proxima.Environment()
        self.assertEqual(env.add_point_cloud("cam", pts, voxel), len(cells))
        self.assertEqual(env.add_point_cloud("dense", pts, voxel, min_points=3), int((counts >= 3).sum()))
        self.assertEqual(len(env), len(cells) + int((counts >= 3).sum()))
        self.assertEqual(env.names[0], "cam/0")
        scene = proxima.SceneChecker(URDF, SRDF, environment=env)
        self.assertTrue(any(o.startswith("cam/") for _, o in scene.check(READY).environment_pairs))
        bad = pts.copy()
        bad[7, 1] = float("nan")
        with self.assertRaises(proxima.Error) as e:
            env.add_point_cloud("cam", bad, voxel)
        self.assertIn("point cloud 'cam': point 7 is not finite", str(e.exception))
        with self.assertRaises(proxima.Error):
            env.add_point_cloud("cam", pts, 0.0)
        with self.assertRaises(ValueError):
            env.add_point_cloud("cam", pts[:, :2], voxel)

    def test_batched_check_equals_single_checks(self):
        env = proxima.Environment()
        env.add("table", proxima.Box(0.6, 1.0, 0.1), ([0.5, 0.0, 0.3], [1, 0, 0, 0]))
        env.add("ball", proxima.Sphere(0.15), ([0.0, -0.4, 0.7], [1, 0, 0, 0]))
        self.panda.environment = env
        try:
            rng = np.random.default_rng(8)
            limits = self.panda.joint_limits
            qs = rng.uniform(limits[:, 0], limits[:, 1], size=(200, 7))
            batch = self.panda.check_batch(qs)
            single = [self.panda.check(q).collide for q in qs]
            self.assertEqual(list(batch.collide), single)
            for threads in (2, 0):
                many = self.panda.check_batch(qs, threads=threads)
                np.testing.assert_array_equal(many.collide, batch.collide)
                np.testing.assert_array_equal(many.status_code, batch.status_code)
                # The sphere prefilter changes the work, not the answers.
                filtered = self.panda.check_batch(qs, threads=threads, prefilter=True)
                np.testing.assert_array_equal(filtered.collide, batch.collide)
                np.testing.assert_array_equal(filtered.status_code, batch.status_code)
            self.assertTrue(any(single) and not all(single))
            self.assertEqual(set(batch.status), {"ok"})
        finally:
            self.panda.environment = proxima.Environment()

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, r"q: expected 7 joint values \(7,\), got shape \(6,\)"):
            self.panda.check(READY[:6])
        with self.assertRaisesRegex(ValueError, r"qs: expected an \(N, 7\) array"):
            self.panda.check_batch(np.zeros((3, 6)))
        bad = list(READY)
        bad[2] = float("nan")
        r = self.panda.check(bad)
        self.assertEqual(r.status, "invalid_input")
        self.assertIn("panda_joint3", r.message)
        self.assertEqual(self.panda.distances(bad).self_distance.status, "invalid_input")
        batch = self.panda.check_batch(np.array([READY, bad]))
        self.assertEqual(list(batch.status), ["ok", "invalid_input"])
        self.assertEqual(list(self.panda.check_batch(np.array([READY, bad] * 50), threads=2).status),
                         ["ok", "invalid_input"] * 50)
        with self.assertRaisesRegex(ValueError, r"threads: must be in \[0, "):
            self.panda.check_batch(np.array([READY]), threads=-3)
        with self.assertRaisesRegex(ValueError, r"threads: must be in \[0, \d+\] .*got 100000"):
            self.panda.check_batch(np.array([READY]), threads=100000)
        self.assertEqual(self.panda.check(READY, base=([0, 0, float("nan")], [1, 0, 0, 0])).status, "invalid_input")
        missing = os.path.join(PANDA, "no_such_robot.urdf")
        with self.assertRaises(ValueError) as e:
            proxima.SceneChecker(missing)
        self.assertIn(missing, str(e.exception))
        with tempfile.TemporaryDirectory() as tmp:
            srdf = os.path.join(tmp, "bad.srdf")
            with open(srdf, "w") as f:
                f.write('<robot name="panda">\n<disable_collisions link1="panda_link0" link2="nolink" reason="x"/>\n</robot>\n')
            with self.assertRaisesRegex(ValueError, r"bad.srdf:2:.*nolink"):
                proxima.SceneChecker(URDF, srdf)
        with self.assertRaisesRegex(ValueError, "mesh_mode"):
            proxima.SceneChecker(URDF, mesh_mode="voxels")
        with self.assertRaisesRegex(ValueError, "pose: non-finite"):
            proxima.Environment().add("x", proxima.Sphere(1), ([float("nan"), 0, 0], [1, 0, 0, 0]))


if __name__ == "__main__":
    unittest.main()
