# SPDX-License-Identifier: BSD-3-Clause
"""proxima.RobotWorld, a robot touching a World's bodies from Python, against
closed forms: a PD-held plate carrying a cube loads its joint with the
gravity torque of plate and cube (m g l_c + m_b g x_b), the contact forces on
the plate carry the cube's weight, and the PD error is that torque over kp;
the Panda's nearest link comes down on a table and rests on it without
sinking; under self-collision a plate rests on a block of its own base with
the force of torque balance; a floating-base robot falls freely at g and
comes to rest on a floor that carries its weight; bad input raises naming
the argument. The shipped robot scenes run from their files as `proxima sim`
runs them: the UR5 pushes the box along the table top (its centre at the
top's height plus half its size), the Panda lifts the scanned mug as far as
its hand rises without slip, the quadruped's feet carry its weight."""
import json
import math
import os
import pathlib
import tempfile
import unittest

import numpy as np

import proxima
from helpers import DATA

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")

G = 9.81
M, LEN, W, T = 2.0, 1.0, 0.3, 0.04  # the plate: mass, length along x, width, thickness


def plate_urdf(directory):
    """One plate on a revolute joint about +y at the origin (positive q turns
    its x axis down), centre of mass at LEN / 2."""
    ixx, iyy, izz = M * (W * W + T * T) / 12, M * (LEN * LEN + T * T) / 12, M * (LEN * LEN + W * W) / 12
    text = f"""<robot name="arm"><link name="base"/><link name="plate">
<inertial><origin xyz="{LEN / 2!r} 0 0"/><mass value="{M!r}"/>
<inertia ixx="{ixx!r}" iyy="{iyy!r}" izz="{izz!r}" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><origin xyz="{LEN / 2!r} 0 0"/><geometry><box size="{LEN!r} {W!r} {T!r}"/></geometry></collision></link>
<joint name="pivot" type="continuous"><parent link="base"/><child link="plate"/><axis xyz="0 1 0"/></joint></robot>"""
    path = os.path.join(directory, "plate.urdf")
    with open(path, "w") as f:
        f.write(text)
    return path


class FloatingBrick(unittest.TestCase):
    """A brick with a flap on a hinge, its base free (floating_base=True), dropped onto a floor."""

    MB, MF = 3.0, 0.5  # brick and flap masses
    SIZE = (0.4, 0.2, 0.1)

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        a, b, c = self.SIZE
        i = [self.MB * (b * b + c * c) / 12, self.MB * (a * a + c * c) / 12, self.MB * (a * a + b * b) / 12]
        text = f"""<robot name="brick"><link name="trunk">
<inertial><mass value="{self.MB!r}"/><inertia ixx="{i[0]!r}" iyy="{i[1]!r}" izz="{i[2]!r}" ixy="0" ixz="0" iyz="0"/>
</inertial><collision><geometry><box size="{a!r} {b!r} {c!r}"/></geometry></collision></link>
<link name="flap"><inertial><origin xyz="0 0 0.05"/><mass value="{self.MF!r}"/>
<inertia ixx="0.001" iyy="0.001" izz="0.0005" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="hinge" type="revolute"><parent link="trunk"/><child link="flap"/><origin xyz="0 0 0.05"/>
<axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="100" velocity="5"/></joint></robot>"""
        self.urdf = os.path.join(self.dir.name, "brick.urdf")
        with open(self.urdf, "w") as f:
            f.write(text)

    def tearDown(self):
        self.dir.cleanup()

    def world(self):
        w = proxima.World(dt=1e-3)
        w.add_body("floor", proxima.Box(4, 4, 0.2), ([0, 0, -0.1], [1, 0, 0, 0]), static=True)
        return w

    def test_it_falls_at_g_then_rests_on_the_floor_with_its_weight(self):
        c = math.cos(0.3)
        s = math.sin(0.3)
        rw = proxima.RobotWorld(self.urdf, self.world(), base=([0, 0, 0.3], [c, 0, 0, s]), floating_base=True)
        self.assertTrue(rw.floating_base)
        rw.set_pd(50.0, 1.0, [0.0])
        rw.step(100)  # 0.1 s of free fall: v = g t, the pose turned as it started
        pose = rw.base_pose
        v_world = pose.R @ rw.base_twist[:3]
        np.testing.assert_allclose(v_world, [0, 0, -G * 0.1], atol=1e-9)
        np.testing.assert_allclose(rw.base_twist[3:], 0, atol=1e-12)
        self.assertAlmostEqual(pose.p[2], 0.3 - 0.5 * G * 0.1 * 0.101, delta=1e-12)
        rw.step(1400)
        contacts = rw.contacts()
        self.assertTrue(contacts)
        self.assertTrue(all(ct["a"] == "trunk" and ct["b"] == "floor" for ct in contacts))
        weight = (self.MB + self.MF) * G
        self.assertAlmostEqual(sum(ct["normal_force"] for ct in contacts), weight, delta=1e-6 * weight)
        self.assertAlmostEqual(rw.base_pose.p[2], self.SIZE[2] / 2, delta=1e-3)
        self.assertLess(np.abs(rw.base_twist).max(), 1e-6)
        self.assertLess(abs(rw.q[0]), 1e-2)

    def test_bad_floating_input_raises(self):
        with self.assertRaises(TypeError):  # a bool, not a number that converts to one
            proxima.RobotWorld(self.urdf, self.world(), floating_base=1)
        with self.assertRaisesRegex(ValueError, r"base_twist: only a floating base"):
            proxima.RobotWorld(self.urdf, self.world(), base_twist=np.zeros(6))
        with self.assertRaisesRegex(ValueError, r"base_twist: expected 6 values"):
            proxima.RobotWorld(self.urdf, self.world(), floating_base=True, base_twist=np.zeros(5))
        with self.assertRaisesRegex(ValueError, r"base_twist\[4\] \(w\): must be finite"):
            proxima.RobotWorld(self.urdf, self.world(), floating_base=True, base_twist=[0, 0, 0, 0, np.nan, 0])
        # The scene file's range (docs/scene-format.md), in the same words.
        with self.assertRaisesRegex(ValueError, r"base_twist\[1\] \(v\): must be in \[-1e\+06, 1e\+06\] \(got 2e\+06\)"):
            proxima.RobotWorld(self.urdf, self.world(), floating_base=True, base_twist=[0, 2e6, 0, 0, 0, 0])
        with self.assertRaisesRegex(ValueError, r"base_twist\[5\] \(w\): must be in \[-1e\+06, 1e\+06\]"):
            proxima.RobotWorld(self.urdf, self.world(), floating_base=True, base_twist=[0, 0, 0, 0, 0, -1.5e6])
        with self.assertRaisesRegex(ValueError, r"qd\[0\] \(joint 'hinge'\): must be in \[-1e\+06, 1e\+06\]"):
            proxima.RobotWorld(self.urdf, self.world(), floating_base=True, qd=[1e7])
        # At the bounds themselves: taken.
        rw = proxima.RobotWorld(self.urdf, self.world(), floating_base=True, qd=[-1e6], base_twist=[1e6, 0, 0, 0, 0, -1e6])
        self.assertEqual(rw.qd[0], -1e6)
        np.testing.assert_array_equal(rw.base_twist, [1e6, 0, 0, 0, 0, -1e6])
        # A fixed base reads back as fixed, at its pose, without a twist.
        rw = proxima.RobotWorld(self.urdf, self.world(), base=([0, 0, 0.5], [1, 0, 0, 0]))
        self.assertFalse(rw.floating_base)
        np.testing.assert_array_equal(rw.base_twist, np.zeros(6))
        rw.step(10)
        self.assertEqual(rw.base_pose.p[2], 0.5)


class PlateOnItsOwnBase(unittest.TestCase):
    """The plate hangs from a mount fixed to a base that carries a block; the
    block's top edge stops it (the base and the plate share no joint, so the
    adjacent pairs aside they are checked). Frictionless, the force along the
    plate's normal at distance s from the pivot balances its weight's moment:
    N = m g l_c cos q / s."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        text = open(plate_urdf(self.dir.name)).read()
        text = text.replace('<link name="base"/>', '<link name="base"><collision><origin xyz="0.45 0 -0.8"/>'
                            '<geometry><box size="0.5 1 1"/></geometry></collision></link><link name="mount"/>'
                            '<joint name="fix" type="fixed"><parent link="base"/><child link="mount"/></joint>')
        text = text.replace('<parent link="base"/><child link="plate"/>', '<parent link="mount"/><child link="plate"/>')
        self.urdf = os.path.join(self.dir.name, "plate_on_base.urdf")
        with open(self.urdf, "w") as f:
            f.write(text)

    def tearDown(self):
        self.dir.cleanup()

    def test_the_block_of_its_own_base_carries_the_plate(self):
        ex, ez = 0.7, -0.3
        d, alpha = math.hypot(ex, ez), math.atan2(-ez, ex)
        q_rest = alpha - math.asin(T / (2 * d))
        s = math.sqrt(d * d - T * T / 4)
        for solver in ("lemke", "pgs"):
            w = proxima.World(dt=1e-3, solver=solver)
            w.friction = 0.0
            rw = proxima.RobotWorld(self.urdf, w, q=[q_rest - 0.02], self_collision=True)
            rw.step(400)
            q = rw.q[0]
            self.assertAlmostEqual(q, q_rest, delta=1e-7)
            contacts = rw.contacts()
            self.assertTrue(contacts)
            for c in contacts:
                self.assertTrue(c["self"])
                self.assertEqual((c["a"], c["b"]), ("base", "plate"))
            normal = sum(c["normal_force"] for c in contacts)
            expected = M * G * (LEN / 2) * math.cos(q) / s
            self.assertAlmostEqual(normal, expected, delta=1e-6 * expected)
            # Without self-collision the plate swings through its base.
            free = proxima.RobotWorld(self.urdf, w, q=[q_rest - 0.02])
            free.step(400)
            self.assertFalse(free.contacts())
            self.assertGreater(free.q[0], q_rest + 0.1)

    def test_bad_self_collision_raises(self):
        w = proxima.World()
        with self.assertRaisesRegex(TypeError, r"self_collision: expected True, False or an SRDF path"):
            proxima.RobotWorld(self.urdf, w, self_collision=1)
        with self.assertRaisesRegex(ValueError, r"nonexistent"):
            proxima.RobotWorld(self.urdf, w, self_collision=os.path.join(self.dir.name, "nonexistent.srdf"))


class PlateCarryingACube(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.urdf = plate_urdf(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def run_cube(self, solver):
        w = proxima.World(dt=1e-3, solver=solver)
        w.friction = 0.6
        w.add_body("cube", proxima.Box(0.1, 0.1, 0.1), ([0.6, 0, T / 2 + 0.05 + 0.03], [1, 0, 0, 0]), density=1000)
        rw = proxima.RobotWorld(self.urdf, w)
        self.assertEqual(rw.joint_names, ["pivot"])
        self.assertEqual(rw.body_names, ["cube"])
        kp = 2000.0
        rw.set_pd(kp, 40.0, [0.0])
        rw.step(1500)
        self.assertAlmostEqual(rw.time, 1.5, places=9)
        return rw, kp

    def test_the_joint_carries_the_gravity_torque_of_plate_and_cube(self):
        for solver in ("lemke", "pgs"):
            rw, kp = self.run_cube(solver)
            q = rw.q[0]
            x_b = rw.body_pose("cube").p[0]
            self.assertLess(np.linalg.norm(rw.body_velocity("cube")), 1e-6)
            torque = M * G * (LEN / 2) * math.cos(q) + 1.0 * G * x_b
            self.assertAlmostEqual(-rw.motor_torque[0], torque, delta=1e-6 * torque)
            self.assertAlmostEqual(q, torque / kp, delta=1e-8)
            contacts = rw.contacts()
            self.assertTrue(contacts)
            # The plate pushes the cube up with its weight: the forces on the
            # plate (side a) sum to -m g along the plate's normal.
            total = sum(c["normal_force"] * np.asarray(c["normal"]) + c["friction_force"] for c in contacts)
            np.testing.assert_allclose(total, [0, 0, -1.0 * G], atol=1e-6)
            for c in contacts:
                self.assertEqual(c["link"], "plate")
                self.assertEqual(c["a"], "plate")
                self.assertEqual(c["b"], "cube")
                self.assertLessEqual(c["depth"], 1e-6)

    def test_bad_input_raises_naming_the_argument(self):
        w = proxima.World()
        rw = proxima.RobotWorld(self.urdf, w)
        with self.assertRaisesRegex(ValueError, r"kp: expected 1 joint values \(1,\), got shape \(2,\)"):
            rw.set_pd([1.0, 2.0], 1.0, [0.0])
        with self.assertRaisesRegex(ValueError, r"q_target\[0\] \(joint 'pivot'\): must be finite"):
            rw.set_pd(1.0, 1.0, [float("nan")])
        with self.assertRaisesRegex(ValueError, r"kd: must be finite"):
            rw.set_pd(1.0, float("inf"), [0.0])
        with self.assertRaisesRegex(ValueError, r"kp: must be in \[0, 1e\+12\] \(got -1.0\)"):
            rw.set_pd(-1.0, 1.0, [0.0])
        with self.assertRaisesRegex(ValueError, r"kd\[0\] \(joint 'pivot'\): must be in \[0, 1e\+12\] \(got 2e\+12\)"):
            rw.set_pd(1.0, [2e12], [0.0])
        with self.assertRaisesRegex(ValueError, r"q_target\[0\] \(joint 'pivot'\): must be in \[-1e\+15, 1e\+15\]"):
            rw.set_pd(1.0, 1.0, [2e15])
        with self.assertRaisesRegex(ValueError, r"qd_target\[0\] \(joint 'pivot'\): must be in \[-1e\+06, 1e\+06\]"):
            rw.set_pd(1.0, 1.0, [0.0], [-3e6])
        with self.assertRaisesRegex(ValueError, r"tau\[0\] \(joint 'pivot'\): must be in \[-1e\+12, 1e\+12\]"):
            rw.set_torque([1e13])
        with self.assertRaisesRegex(ValueError, r"qd\[0\] \(joint 'pivot'\): must be in \[-1e\+06, 1e\+06\] \(got 1000001.0\)"):
            proxima.RobotWorld(self.urdf, w, qd=[1e6 + 1])
        with self.assertRaisesRegex(ValueError, r"q\[0\] \(joint 'pivot'\): must be in \[-1e\+15, 1e\+15\]"):
            proxima.RobotWorld(self.urdf, w, q=[-1e16])
        with self.assertRaisesRegex(ValueError, r"tau: expected 1 joint values"):
            rw.set_torque([0.0, 0.0])
        with self.assertRaisesRegex(ValueError, r"step: n must be >= 0"):
            rw.step(-1)
        with self.assertRaisesRegex(ValueError, r"link: no link named 'plat'"):
            rw.link_pose("plat")
        with self.assertRaisesRegex(ValueError, r"body: no body named 'cube'"):
            rw.body_pose("cube")
        with self.assertRaisesRegex(ValueError, r"q: expected 1 joint values"):
            proxima.RobotWorld(self.urdf, w, q=[0.0, 1.0])
        with self.assertRaisesRegex(ValueError, r"mesh_mode: unknown"):
            proxima.RobotWorld(self.urdf, w, mesh_mode="hull")
        with self.assertRaisesRegex(ValueError, r"margin: must be finite and >= 0"):
            proxima.RobotWorld(self.urdf, w, margin=-1.0)
        self.assertEqual(rw.time, 0.0)

    def test_a_world_refuses_a_scene_with_a_robot(self):
        scene = {"bodies": [], "robots": [{"urdf": self.urdf}]}
        with self.assertRaisesRegex(ValueError, r"robots: proxima.World does not simulate robots"):
            proxima.World.from_json(json.dumps(scene))


class PandaOnATable(unittest.TestCase):
    def test_the_nearest_link_rests_on_the_table_without_sinking(self):
        # The ready pose with the shoulder leaned forward, under PD. The
        # table's height comes from the scene checker (an independent
        # distance query): its top 1 mm below the link nearest to it at the
        # ready pose. That link comes down on it and stays on its top (no
        # contact deeper than 1e-6 m), the arm at rest.
        ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
        urdf = os.path.join(DATA, "robots", "panda", "panda.urdf")
        # A small table under the hand, its top at 0.45 m for the query.
        size, centre_x, probe_top = (0.15, 0.3, 0.05), 0.325, 0.45
        env = proxima.Environment()
        env.add("table", proxima.Box(*size), ([centre_x, 0, probe_top - size[2] / 2], [1, 0, 0, 0]))
        nearest = proxima.SceneChecker(urdf, environment=env).distances(ready).environment_distance
        self.assertTrue(nearest.found)
        self.assertIn(nearest.link, {"panda_leftfinger", "panda_rightfinger"})
        top = probe_top + nearest.distance - 1e-3
        w = proxima.World(dt=1e-3, solver="pgs")
        w.add_body("table", proxima.Box(*size), ([centre_x, 0, top - size[2] / 2], [1, 0, 0, 0]), static=True)
        rw = proxima.RobotWorld(urdf, w, q=ready)
        target = list(ready)
        target[1] += 0.15
        rw.set_pd(400.0, 40.0, target)
        rw.step(1500)
        contacts = rw.contacts()
        self.assertTrue(contacts)
        self.assertIn(nearest.link, {c["link"] for c in contacts})
        self.assertLessEqual(max(c["depth"] for c in contacts), 1e-6)
        self.assertLess(np.abs(rw.qd).max(), 1e-4)
        # The table only pushes up.
        total = sum(c["normal_force"] * np.asarray(c["normal"]) + c["friction_force"] for c in contacts)
        self.assertGreater(total[2], 0.0)


class ShippedRobotScenes(unittest.TestCase):
    """examples/*.json with a robot, read by RobotWorld.from_file and stepped
    for the scene's time, its target trajectory followed."""

    def run_scene(self, name, observe=None):
        rw = proxima.RobotWorld.from_file(pathlib.Path(EXAMPLES) / name)
        self.assertTrue(rw.scripted)
        steps = int(round(rw.duration / rw.dt))
        for i in range(steps):
            rw.step()
            if observe:
                observe(rw, i + 1)
        self.assertAlmostEqual(rw.time, steps * rw.dt, places=9)
        return rw

    def test_the_ur5_pushes_the_box_flat_along_the_table(self):
        scene = json.load(open(os.path.join(EXAMPLES, "ur5_push_box.json")))
        bodies = {b["name"]: b for b in scene["bodies"]}
        table, box = bodies["table"], bodies["box"]
        top = table["pose"]["p"][2] + table["shape"]["size"][2] / 2
        rest_z = top + box["shape"]["size"][2] / 2
        start = np.asarray(box["pose"]["p"])
        heights = []
        rw = self.run_scene("ur5_push_box.json", lambda rw, i: heights.append(rw.body_pose("box").p[2]))
        self.assertEqual(rw.name, "ur5_push_box")
        end = np.asarray(rw.body_pose("box").p)
        # Slid, not lifted or sunk: the centre stays at the top plus half the
        # box's size, and the box ends at rest, pushed more than 15 cm.
        self.assertLess(max(abs(z - rest_z) for z in heights), 1e-3)
        self.assertGreater(np.linalg.norm(end[:2] - start[:2]), 0.15)
        self.assertLess(np.linalg.norm(rw.body_velocity("box")), 1e-3)

    def test_the_panda_lifts_the_scanned_mug_with_its_hand(self):
        mug_file = "/usr/share/mujoco/model/mug/mug.obj"
        self.assertTrue(os.path.exists(mug_file), mug_file + " is missing: install libmujoco-samples (scripts/deps.sh)")
        track = {}

        def observe(rw, i):
            t = round(i * rw.dt, 6)
            if t in (0.6, 1.6, 2.1):
                hand = rw.link_pose("panda_hand")
                mug = rw.body_pose("mug")
                # The mug's centre in the hand's frame: it does not move there
                # if the fingers hold it without slip.
                track[t] = (np.asarray(hand.p), np.asarray(mug.p), hand.inverse() * mug)

        self.run_scene("panda_mug_grasp.json", observe)
        hand_rise = track[1.6][0][2] - track[0.6][0][2]
        mug_rise = track[1.6][1][2] - track[0.6][1][2]
        self.assertGreater(hand_rise, 0.19)
        self.assertLess(abs(mug_rise - hand_rise), 2e-3)
        for t in (1.6, 2.1):
            self.assertLess(np.linalg.norm(np.asarray(track[t][2].p) - np.asarray(track[0.6][2].p)), 2e-3)

    def test_the_quadruped_stands_on_the_terrain_mesh_carrying_its_weight(self):
        rw = self.run_scene("quadruped_terrain.json")
        urdf = os.path.join(EXAMPLES, "robots", "quadruped.urdf")
        import xml.etree.ElementTree as ET
        mass = sum(float(m.get("value")) for m in ET.parse(urdf).getroot().iter("mass"))
        scene = json.load(open(os.path.join(EXAMPLES, "quadruped_terrain.json")))
        g = -scene.get("gravity", [0, 0, -G])[2]
        contacts = rw.contacts()
        self.assertTrue(contacts)
        total = sum(c["normal_force"] * np.asarray(c["normal"]) + c["friction_force"] for c in contacts)
        self.assertAlmostEqual(total[2] / (mass * g), 1.0, delta=1e-3)
        self.assertLess(np.abs(rw.qd).max(), 1e-3)
        self.assertTrue(rw.floating_base)  # the trunk is the root link, free
        self.assertLess(np.abs(rw.base_twist).max(), 1e-3)


class RobotScenesFromText(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.urdf = plate_urdf(self.dir.name)
        self.scene = {"name": "held", "time": 0.2, "bodies": [],
                      "robots": [{"urdf": self.urdf, "q": [0.0], "kp": [400.0], "kd": [20.0],
                                  "targets": [{"t": 0.0, "q": [0.0]}, {"t": 0.1, "q": [0.3]}]}]}

    def tearDown(self):
        self.dir.cleanup()

    def test_step_follows_the_target_trajectory_until_set_pd(self):
        rw = proxima.RobotWorld.from_json(json.dumps(self.scene))
        self.assertEqual((rw.name, rw.duration, rw.scripted), ("held", 0.2, True))
        rw.step(100)
        self.assertGreater(rw.q[0], 0.1)  # on its way to the 0.3 rad key
        rw.set_pd(400.0, 20.0, [0.0])
        self.assertFalse(rw.scripted)
        rw.step(1000)
        self.assertLess(abs(rw.q[0]), abs(M * G * LEN / 2 / 400.0) + 1e-3)  # back at 0, sagging by τ_g / kp at most
        rw.scripted = True
        rw.step(400)
        self.assertGreater(rw.q[0], 0.25)  # the last key, 0.3 rad, less the sag

    def test_a_peg_scene_rests_the_plate_on_its_tip_corners(self):
        # "formulation": "peg": the plate, without motor, falls 1 cm onto a
        # static block under its tip (x in [0.8, 1.2]). PEG's rows are its two
        # bottom tip corners, so the frictionless force balances the gravity
        # torque about the pivot: N LEN = M G LEN / 2.
        scene = json.loads(json.dumps(self.scene))
        for k in ("kp", "kd", "targets"):
            del scene["robots"][0][k]
        scene["robots"][0]["q"] = [-0.01]
        scene["solver"] = {"kind": "pgs", "formulation": "peg"}
        scene["friction"] = {"default": 0.0}
        scene["bodies"] = [{"name": "block", "static": True, "shape": {"shape": "box", "size": [0.4, 1.0, 0.2]},
                            "pose": {"p": [1.0, 0.0, -0.1 - T / 2]}}]
        rw = proxima.RobotWorld.from_json(json.dumps(scene))
        rw.step(400)
        self.assertAlmostEqual(rw.q[0], 0.0, delta=1e-7)
        contacts = rw.contacts()
        self.assertEqual(len(contacts), 2)
        for c in contacts:
            self.assertAlmostEqual(c["point"][0], LEN, delta=1e-6)
        normal = sum(c["normal_force"] for c in contacts)
        self.assertAlmostEqual(normal, M * G / 2, delta=1e-6 * M * G)

    def test_bad_scenes_raise_naming_the_field(self):
        with self.assertRaisesRegex(ValueError, r"robots: the scene has no robot"):
            proxima.RobotWorld.from_json(json.dumps({"bodies": []}))
        bad = json.loads(json.dumps(self.scene))
        bad["robots"][0]["kpp"] = 1
        with self.assertRaisesRegex(ValueError, r"robots\[0\]\.kpp"):
            proxima.RobotWorld.from_json(json.dumps(bad))
        with self.assertRaisesRegex(ValueError, r"scene: not valid JSON"):
            proxima.RobotWorld.from_json("{")
        no_script = json.loads(json.dumps(self.scene))
        for k in ("kp", "kd", "targets"):
            del no_script["robots"][0][k]
        rw = proxima.RobotWorld.from_json(json.dumps(no_script))
        self.assertFalse(rw.scripted)
        with self.assertRaisesRegex(ValueError, r"scripted: this RobotWorld has no target trajectory"):
            rw.scripted = True
        with self.assertRaisesRegex(TypeError, r"scripted: expected True or False"):
            rw.scripted = 1
        with self.assertRaisesRegex(ValueError, r"link: no link named 'elbow'"):
            rw.set_friction("elbow", 1.0)
        with self.assertRaisesRegex(ValueError, r"mu: must be finite and >= 0"):
            rw.set_friction("plate", -1.0)
        with self.assertRaisesRegex(ValueError, r"body: no body named 'mug'"):
            rw.set_friction("plate", 1.0, body="mug")
        rw.set_friction("plate", 0.9)


if __name__ == "__main__":
    unittest.main()
