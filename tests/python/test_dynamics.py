# SPDX-License-Identifier: BSD-3-Clause
"""proxima.Dynamics against MuJoCo's (PyPI) inverse dynamics and mass matrix on the same URDF.

With a floating base MuJoCo reads the URDF with a "floating" joint from a world link to the
root (its free joint). Its velocities are (linear velocity of the root origin in the world
frame, angular velocity in the root frame); Proxima's are both in the root frame. With R the
root's rotation, u_mujoco = A u_proxima for A = diag(R, 1, J), so M = A^T M_mj A, tau =
A^T tau_mj, and the accelerations differ by dA/dt u = (R (w x v), 0, 0).

MuJoCo is used here only as an independent computation. Both libraries read the same
URDF text, stripped of visual and collision geometry (MuJoCo would load the meshes).
Two modelling conventions differ and are made to agree in that text: MuJoCo drops the
rotational inertia of a link without mass (the shipped Panda's link8 and grasp target
carry 0.1 kg m^2 at 0 kg; Proxima takes the URDF literally), so such links get a zero
inertia; and MuJoCo refuses an inertia on the edge of the triangle inequality (the
UR5's gripper knuckles), so every diagonal moment grows by 1e-7 kg m^2.
"""
import os
import unittest
import xml.etree.ElementTree as ET

import numpy as np

import proxima
from helpers import DATA

try:
    import mujoco
except ImportError:  # pragma: no cover - scripts/venv.sh installs it
    mujoco = None

ROBOTS = os.path.join(DATA, "robots")

# An arm with every joint kind Dynamics folds: revolute, continuous, prismatic,
# fixed, and a mimic joint (multiplier -2, offset 0.1) whose torque folds into
# its target's variable. Inertias full (off-diagonal terms) and off-centre.
ARM = """<robot name="kinds">
  <link name="base"/>
  <link name="a"><inertial><origin xyz="0.1 0.02 0.3" rpy="0.1 0.2 0.3"/><mass value="2.0"/>
    <inertia ixx="0.05" ixy="0.004" ixz="-0.003" iyy="0.06" iyz="0.002" izz="0.04"/></inertial></link>
  <link name="b"><inertial><origin xyz="0.2 0 0.05" rpy="0 0.4 0"/><mass value="1.5"/>
    <inertia ixx="0.02" ixy="0.001" ixz="0" iyy="0.03" iyz="-0.002" izz="0.025"/></inertial></link>
  <link name="c"><inertial><origin xyz="0 0.05 0.1"/><mass value="0.8"/>
    <inertia ixx="0.01" ixy="0" ixz="0.001" iyy="0.012" iyz="0" izz="0.009"/></inertial></link>
  <link name="d"><inertial><origin xyz="0.03 0 0"/><mass value="0.3"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.003" iyz="0" izz="0.002"/></inertial></link>
  <link name="e"><inertial><origin xyz="0 0 0.02"/><mass value="0.2"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.0015"/></inertial></link>
  <link name="f"><inertial><origin xyz="0.01 0.01 0.01"/><mass value="0.4"/>
    <inertia ixx="0.003" ixy="0.0002" ixz="0" iyy="0.002" iyz="0" izz="0.003"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="50" velocity="2"/></joint>
  <joint name="j2" type="continuous"><parent link="a"/><child link="b"/><origin xyz="0 0.1 0.4" rpy="0.3 0 0.2"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="j3" type="prismatic"><parent link="b"/><child link="c"/><origin xyz="0.3 0 0"/>
    <axis xyz="0.6 0 0.8"/><limit lower="-0.5" upper="0.5" effort="100" velocity="1"/></joint>
  <joint name="j4" type="fixed"><parent link="c"/><child link="d"/><origin xyz="0 0 0.2" rpy="0 0.5 0"/></joint>
  <joint name="j5" type="revolute"><parent link="d"/><child link="e"/><origin xyz="0.1 0 0"/>
    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="10" velocity="3"/></joint>
  <joint name="j6" type="revolute"><parent link="d"/><child link="f"/><origin xyz="0 0.1 0"/>
    <axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="10" velocity="3"/>
    <mimic joint="j5" multiplier="-2" offset="0.1"/></joint>
</robot>"""


# The same arm with a root link of mass: floating, it is the trunk.
FLOATING_ARM = ARM.replace(
    '<link name="base"/>',
    '<link name="base"><inertial><origin xyz="0.02 -0.01 0.05" rpy="0.3 0.1 -0.2"/><mass value="3.0"/>'
    '<inertia ixx="0.05" ixy="0.002" ixz="-0.001" iyy="0.06" iyz="0.003" izz="0.07"/></inertial></link>')


def comparable(text):
    """The URDF as both libraries read it (module docstring), and its root element."""
    root = ET.fromstring(text)
    for link in root.findall("link"):
        for tag in ("visual", "collision"):
            for e in link.findall(tag):
                link.remove(e)
        inertial = link.find("inertial")
        if inertial is None:
            continue
        inertia = inertial.find("inertia")
        massless = float(inertial.find("mass").get("value")) == 0.0
        for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz"):
            v = 0.0 if massless else float(inertia.get(k, "0"))
            if k in ("ixx", "iyy", "izz") and not massless:
                v += 1e-7
            inertia.set(k, repr(v))
    return ET.tostring(root, encoding="unicode"), root


def with_free_root(text):
    """The URDF text with a world link and a floating joint onto its root link (MuJoCo's free joint)."""
    root = ET.fromstring(text)
    children = {j.find("child").get("link") for j in root.findall("joint")}
    top = next(link.get("name") for link in root.findall("link") if link.get("name") not in children)
    ET.SubElement(root, "link", name="world")
    joint = ET.SubElement(root, "joint", name="floating_base", type="floating")
    ET.SubElement(joint, "parent", link="world")
    ET.SubElement(joint, "child", link=top)
    return ET.tostring(root, encoding="unicode")


def quat_matrix(w, x, y, z):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


class Pair:
    """One URDF in both libraries, with the map from Proxima's variables to MuJoCo's joints."""

    def __init__(self, text, floating=False):
        text, root = comparable(text)
        self.m = mujoco.MjModel.from_xml_string(with_free_root(text) if floating else text)
        self.d = mujoco.MjData(self.m)
        self.dyn = proxima.Dynamics.from_xml(text, floating_base=floating)
        self.floating = floating
        names = self.dyn.variable_names
        base = 6 if floating else 0
        mimic = {}
        for j in root.findall("joint"):
            mi = j.find("mimic")
            if mi is not None and j.get("type") != "fixed":
                mimic[j.get("name")] = (mi.get("joint"), float(mi.get("multiplier", "1")), float(mi.get("offset", "0")))
        self.J = np.zeros((self.m.nv, self.dyn.dof))
        self.offset = np.zeros(self.m.nq)
        self.q_of = np.zeros((self.m.nq, self.dyn.variable_count))
        for i in range(self.m.njnt):
            name, dof, adr = self.m.joint(i).name, self.m.jnt_dofadr[i], self.m.jnt_qposadr[i]
            if name == "floating_base":
                self.free = (dof, adr)
            elif name in names:
                self.J[dof, base + names.index(name)] = 1.0
                self.q_of[adr, names.index(name)] = 1.0
            else:
                target, multiplier, offset = mimic[name]
                self.J[dof, base + names.index(target)] = multiplier
                self.q_of[adr, names.index(target)] = multiplier
                self.offset[adr] = offset
        self.mimics = len(mimic)

    def mujoco(self, q, qd, qdd, base=None):
        """MuJoCo's M and M qdd + C qd + G, in Proxima's variables (for a fixed base J is constant: no
        J-dot term; a floating base's is (R (w x v), 0, 0)). base: (p, quaternion w first)."""
        m, d, J = self.m, self.d, self.J.copy()
        d.qpos[:] = self.q_of @ q + self.offset
        acc_shift = np.zeros(m.nv)
        if self.floating:
            p, quat = base
            dof, adr = self.free
            d.qpos[adr:adr + 3] = p
            d.qpos[adr + 3:adr + 7] = quat
            R = quat_matrix(*quat)
            J[dof:dof + 3, 0:3] = R
            J[dof + 3:dof + 6, 3:6] = np.eye(3)
            acc_shift[dof:dof + 3] = R @ np.cross(qd[3:6], qd[0:3])
        d.qvel[:] = J @ qd
        mujoco.mj_forward(m, d)
        d.qacc[:] = J @ qdd + acc_shift
        tau = np.zeros(m.nv)
        mujoco.mj_rne(m, d, 1, tau)
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        return J.T @ M @ J, J.T @ tau


@unittest.skipIf(mujoco is None, "MuJoCo (PyPI, scripts/venv.sh) is not installed")
class DynamicsAgainstMuJoCo(unittest.TestCase):
    def compare(self, text, trials=60, seed=1):
        pair = Pair(text)
        rng = np.random.default_rng(seed)
        worst_M = worst_tau = worst_h = worst_qdd = 0.0
        for _ in range(trials):
            q = rng.uniform(-2, 2, pair.dyn.dof)
            qd = rng.uniform(-3, 3, pair.dyn.dof)
            qdd = rng.uniform(-5, 5, pair.dyn.dof)
            M_mj, tau_mj = pair.mujoco(q, qd, qdd)
            M = pair.dyn.mass_matrix(q)
            tau = pair.dyn.inverse_dynamics(q, qd, qdd)
            h_mj = pair.mujoco(q, qd, np.zeros_like(qdd))[1]
            worst_M = max(worst_M, np.abs(M - M_mj).max() / max(1.0, np.abs(M_mj).max()))
            worst_tau = max(worst_tau, np.abs(tau - tau_mj).max() / max(1.0, np.abs(tau_mj).max()))
            worst_h = max(worst_h, np.abs(pair.dyn.bias_forces(q, qd) - h_mj).max() / max(1.0, np.abs(h_mj).max()))
            # Forward dynamics inverts MuJoCo's torque back to the acceleration.
            back = pair.dyn.forward_dynamics(q, qd, tau_mj)
            worst_qdd = max(worst_qdd, np.abs(back - qdd).max() / max(1.0, np.abs(qdd).max()))
        self.assertLess(worst_M, 1e-9)
        self.assertLess(worst_tau, 1e-9)
        self.assertLess(worst_h, 1e-9)
        self.assertLess(worst_qdd, 1e-7)
        return pair

    def test_panda(self):
        with open(os.path.join(ROBOTS, "panda", "panda.urdf")) as f:
            self.assertEqual(self.compare(f.read()).dyn.dof, 7)

    def test_ur5(self):
        with open(os.path.join(ROBOTS, "ur5", "ur5.urdf")) as f:
            self.assertEqual(self.compare(f.read()).dyn.dof, 6)

    def test_every_joint_kind_with_a_mimic(self):
        pair = self.compare(ARM)
        self.assertEqual(pair.dyn.variable_names, ["j1", "j2", "j3", "j5"])
        self.assertEqual(pair.mimics, 1)

    def compare_floating(self, text, trials=60, seed=2):
        pair = Pair(text, floating=True)
        dyn = pair.dyn
        n = dyn.variable_count
        self.assertEqual(dyn.dof, n + 6)
        rng = np.random.default_rng(seed)
        worst = {"M": 0.0, "tau": 0.0, "h": 0.0, "qdd": 0.0}
        for _ in range(trials):
            quat = rng.normal(size=4)
            quat /= np.linalg.norm(quat)
            p = rng.uniform(-1, 1, 3)
            pose = np.eye(4)
            pose[:3, :3] = quat_matrix(*quat)
            pose[:3, 3] = p
            q = rng.uniform(-2, 2, n)
            qd = rng.uniform(-3, 3, n + 6)
            qdd = rng.uniform(-5, 5, n + 6)
            M_mj, tau_mj = pair.mujoco(q, qd, qdd, (p, quat))
            h_mj = pair.mujoco(q, qd, np.zeros_like(qdd), (p, quat))[1]
            M = dyn.mass_matrix(q)
            tau = dyn.inverse_dynamics(q, qd, qdd, base=pose)
            h = dyn.bias_forces(q, qd, base=pose)
            back = dyn.forward_dynamics(q, qd, tau_mj, base=pose)
            scale = lambda x: max(1.0, np.abs(x).max())  # noqa: E731
            worst["M"] = max(worst["M"], np.abs(M - M_mj).max() / scale(M_mj))
            worst["tau"] = max(worst["tau"], np.abs(tau - tau_mj).max() / scale(tau_mj))
            worst["h"] = max(worst["h"], np.abs(h - h_mj).max() / scale(h_mj))
            worst["qdd"] = max(worst["qdd"], np.abs(back - qdd).max() / scale(qdd))
        self.assertLess(worst["M"], 1e-9, worst)
        self.assertLess(worst["tau"], 1e-9, worst)
        self.assertLess(worst["h"], 1e-9, worst)
        self.assertLess(worst["qdd"], 1e-7, worst)
        return pair

    def test_floating_panda(self):
        # The Panda's root link carries mass: MuJoCo's free joint needs a body with mass.
        with open(os.path.join(ROBOTS, "panda", "panda.urdf")) as f:
            self.assertEqual(self.compare_floating(f.read()).dyn.dof, 13)

    def test_floating_tree_with_every_joint_kind(self):
        pair = self.compare_floating(FLOATING_ARM)
        self.assertEqual(pair.dyn.variable_names, ["j1", "j2", "j3", "j5"])

    def test_the_floating_comparison_sees_a_wrong_convention(self):
        # The twist convention matters: reading MuJoCo's world-frame linear velocity as the
        # base-frame one (A without R) misses by far more than the tolerance.
        pair = Pair(FLOATING_ARM, floating=True)
        quat = np.array([0.8, 0.2, -0.4, 0.4])
        quat /= np.linalg.norm(quat)
        pose = np.eye(4)
        pose[:3, :3] = quat_matrix(*quat)
        q, qd = np.full(4, 0.3), np.linspace(-1, 1, 10)
        _, h_mj = pair.mujoco(q, qd, np.zeros(10), (np.zeros(3), quat))
        self.assertLess(np.abs(pair.dyn.bias_forces(q, qd, base=pose) - h_mj).max(), 1e-9)
        self.assertGreater(np.abs(pair.dyn.bias_forces(q, qd) - h_mj).max(), 1e-3)  # the identity base pose

    def test_the_comparison_sees_a_wrong_inertia(self):
        # The same check fails when one side's model differs by a small inertia
        # (1e-4 kg m^2 on one moment): the 1e-9 tolerance is far below what such
        # a modelling slip changes.
        text, _ = comparable(ARM)
        pair = Pair(ARM)
        wrong = proxima.Dynamics.from_xml(text.replace('ixx="0.05', 'ixx="0.0501', 1))
        q = np.full(4, 0.3)
        M_mj, _ = pair.mujoco(q, np.zeros(4), np.zeros(4))
        self.assertGreater(np.abs(wrong.mass_matrix(q) - M_mj).max(), 1e-7)


class DynamicsInputs(unittest.TestCase):
    def setUp(self):
        self.dyn = proxima.Dynamics.from_xml(ARM)

    def test_vectors_must_have_dof_finite_values(self):
        z = np.zeros(4)
        with self.assertRaisesRegex(ValueError, r"qd: expected 4 values"):
            self.dyn.bias_forces(z, np.zeros(3))
        with self.assertRaisesRegex(ValueError, r"q: expected 4 values"):
            self.dyn.mass_matrix(np.zeros((2, 2)))
        with self.assertRaisesRegex(ValueError, r"qdd.*j3"):
            self.dyn.inverse_dynamics(z, z, np.array([0.0, 0.0, np.nan, 0.0]))
        with self.assertRaisesRegex(ValueError, r"tau.*j1"):
            self.dyn.forward_dynamics(z, z, np.array([np.inf, 0.0, 0.0, 0.0]))
        with self.assertRaisesRegex(TypeError, r"q: expected numbers"):
            self.dyn.mass_matrix("abcd")

    def test_floating_vectors_and_base_pose_are_checked(self):
        dyn = proxima.Dynamics.from_xml(FLOATING_ARM, floating_base=True)
        self.assertTrue(dyn.floating_base)
        with self.assertRaises(TypeError):  # a bool, not a number that converts to one
            proxima.Dynamics.from_xml(FLOATING_ARM, floating_base=1)
        self.assertEqual((dyn.variable_count, dyn.dof), (4, 10))
        q, u = np.zeros(4), np.zeros(10)
        self.assertEqual(dyn.mass_matrix(q).shape, (10, 10))
        with self.assertRaisesRegex(ValueError, r"qd: expected 10 values"):
            dyn.bias_forces(q, np.zeros(4))
        with self.assertRaisesRegex(ValueError, r"q: expected 4 values"):
            dyn.mass_matrix(u)
        bad = u.copy()
        bad[2] = np.nan
        with self.assertRaisesRegex(ValueError, r"qdd.*base v_z"):
            dyn.inverse_dynamics(q, u, bad)
        with self.assertRaisesRegex(ValueError, r"base"):
            dyn.bias_forces(q, u, base=np.full((4, 4), np.nan))

    def test_base_and_gravity_are_checked(self):
        with self.assertRaisesRegex(ValueError, r"gravity"):
            proxima.Dynamics.from_xml(ARM, gravity=(0.0, np.nan, -9.81))
        with self.assertRaisesRegex(ValueError, r"gravity"):
            proxima.Dynamics.from_xml(ARM, gravity=(0.0, -9.81))
        with self.assertRaisesRegex(ValueError, r"base"):
            proxima.Dynamics.from_xml(ARM, base=np.full((4, 4), np.nan))

    def test_gravity_and_base_enter_the_bias(self):
        # A zero-gravity robot at rest feels nothing; the default pulls along -z.
        z = np.zeros(4)
        still = proxima.Dynamics.from_xml(ARM, gravity=(0.0, 0.0, 0.0))
        self.assertEqual(np.abs(still.bias_forces(z, z)).max(), 0.0)
        self.assertGreater(np.abs(self.dyn.bias_forces(z, z)).max(), 0.1)
        # Turning the base upside down under gravity is gravity turned around.
        flipped = proxima.Dynamics.from_xml(ARM, base=np.diag([1.0, -1.0, -1.0, 1.0]))
        up = proxima.Dynamics.from_xml(ARM, gravity=(0.0, 0.0, 9.81))
        np.testing.assert_allclose(flipped.bias_forces(z, z), up.bias_forces(z, z), atol=1e-12)


if __name__ == "__main__":
    unittest.main()
