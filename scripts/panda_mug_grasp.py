#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes examples/panda_mug_grasp.json: the Panda of
examples/robots/panda_hand.urdf grasps the scanned mug (MuJoCo's sample,
Debian package libmujoco-samples) by its rim and lifts it 20 cm.

The arm's waypoints come from inverse kinematics computed here, offline, on
the URDF's own kinematic chain (joint origins, rpy = Rz(yaw) Ry(pitch)
Rx(roll), axes), with numpy only: damped least squares on the hand frame's
pose, the Jacobian by central differences. Rerun after changing the layout:

    .venv/bin/python scripts/panda_mug_grasp.py            # writes the scene
    .venv/bin/python scripts/panda_mug_grasp.py --check    # exits 1 if it differs

Layout (world frame = the robot's base frame, z up): a static table whose
top is at z = 0 from x = 0.25 m to 0.75 m; the mug (mesh y up, scale 0.01,
outer wall radius 44.7 mm, wall 5.6 mm, rim at 71.9 mm) stands on it with
its axis at (0.5, 0, z) and its handle towards +x, away from the robot. The
hand points down with its fingers closing along world x, straddling the
wall nearest the robot (radius 41.9 mm, the wall's middle); the finger pads
(the last 18 mm of the fingers) end 32 mm below the rim, on the straight part
of the wall (near the rim it thins by 1 mm).
"""
import argparse
import json
import math
import pathlib
import sys
import xml.etree.ElementTree as ET

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
URDF = ROOT / "examples" / "robots" / "panda_hand.urdf"
SCENE = ROOT / "examples" / "panda_mug_grasp.json"

MUG_CENTRE = np.array([0.5, 0.0])  # axis, world x y
WALL_RADIUS = 0.0419                # middle of the 5.6 mm wall
RIM = 0.0719                        # top of the rim above the mug's base
TIP = 0.0584 + 0.0538               # fingertip below the hand frame (joint origin + finger mesh)
PAD_BELOW_RIM = 0.032               # fingertips 32 mm below the rim: the pads on the straight wall
LAYER = 0.001                       # the mug's boundary layer, m
LIFT = 0.20
APPROACH = 0.05                     # start this far above the grasp

# Times of the script (s): descend, close, settle, lift, hold.
T_DESCEND, T_CLOSE, T_CLOSED, T_LIFT, T_LIFTED, T_END = 0.4, 0.42, 0.52, 0.6, 1.6, 2.1
FINGER_OPEN = 0.02      # each finger 20 mm from the hand's centre plane: 14 mm clear of the wall
FINGER_SQUEEZE = -0.01  # target past the wall: the PD torque saturates at the 20 N effort limit


def rpy_matrix(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    return rz @ ry @ rx


def axis_angle(axis, a):
    k = np.asarray(axis) / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


def chain(urdf, tip):
    """The joints from the root to `tip`: (type, origin 4x4, axis)."""
    joints = {}
    for j in ET.parse(urdf).getroot().findall("joint"):
        o = j.find("origin")
        xyz = [float(v) for v in o.get("xyz", "0 0 0").split()] if o is not None else [0, 0, 0]
        rpy = [float(v) for v in o.get("rpy", "0 0 0").split()] if o is not None else [0, 0, 0]
        T = np.eye(4)
        T[:3, :3] = rpy_matrix(*rpy)
        T[:3, 3] = xyz
        a = j.find("axis")
        axis = [float(v) for v in a.get("xyz").split()] if a is not None else [1, 0, 0]
        joints[j.find("child").get("link")] = (j.get("type"), T, axis, j.find("parent").get("link"))
    out, link = [], tip
    while link in joints:
        t, T, axis, parent = joints[link]
        out.append((t, T, axis))
        link = parent
    return out[::-1]


def fk(joints, q):
    T, i = np.eye(4), 0
    for t, origin, axis in joints:
        T = T @ origin
        if t in ("revolute", "continuous"):
            M = np.eye(4)
            M[:3, :3] = axis_angle(axis, q[i])
            T = T @ M
            i += 1
        elif t == "prismatic":
            raise ValueError("the arm chain has no prismatic joint")
    return T


def pose_error(T, p, R):
    dR = R @ T[:3, :3].T  # rotation taking the current to the target
    angle = math.acos(max(-1.0, min(1.0, (np.trace(dR) - 1) / 2)))
    w = np.array([dR[2, 1] - dR[1, 2], dR[0, 2] - dR[2, 0], dR[1, 0] - dR[0, 1]])
    rot = np.zeros(3) if angle < 1e-12 else w * angle / (2 * math.sin(angle))
    return np.concatenate([p - T[:3, 3], rot])


def ik(joints, p, R, seed):
    q = np.array(seed, dtype=float)
    for _ in range(200):
        e = pose_error(fk(joints, q), p, R)
        if np.linalg.norm(e) < 1e-12:
            break
        J = np.zeros((6, len(q)))
        for k in range(len(q)):
            d = np.zeros(len(q))
            d[k] = 1e-7
            J[:, k] = (pose_error(fk(joints, q - d), p, R) - pose_error(fk(joints, q + d), p, R)) / 2e-7
        step = J.T @ np.linalg.solve(J @ J.T + 1e-10 * np.eye(6), e)
        q = q + step * min(1.0, 0.1 / np.linalg.norm(step))  # at most 0.1 rad a step: stays on the seed's branch
    e = pose_error(fk(joints, q), p, R)
    if np.linalg.norm(e) > 1e-9:
        raise SystemExit(f"ik did not converge: error {np.linalg.norm(e)}")
    return q


def scene():
    joints = chain(URDF, "panda_hand")
    # Hand z down, hand y (the fingers' closing axis) along world x.
    R = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    grasp = np.array([MUG_CENTRE[0] - WALL_RADIUS, MUG_CENTRE[1], LAYER + RIM - PAD_BELOW_RIM + TIP])
    # Franka's "ready" pose (hand down, its y along −world y) with the hand
    # turned 90° about its axis, the seed.
    ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785 - math.pi / 2]
    q_grasp = ik(joints, grasp, R, ready)

    def line(t0, t1, z0, z1, n, finger, seed):
        # n keys on the straight vertical line z0 → z1 (joint-space
        # interpolation between keys strays by micrometres, not millimetres).
        # The keys are equally spaced in time along a smooth start and stop
        # (s = (1 − cos πτ)/2): the velocity target starts and ends at 0
        # instead of jumping, which would jerk the grasped mug.
        keys, q = [], seed
        for k in range(1, n + 1):
            s = (1 - math.cos(math.pi * k / n)) / 2
            q = ik(joints, grasp + [0, 0, z0 + (z1 - z0) * s], R, q)
            keys.append(key(t0 + (t1 - t0) * k / n, q, finger))
        return keys

    def key(t, q, finger):
        return {"t": round(t, 6), "q": [round(float(v), 6) for v in q] + [finger]}

    q_above = ik(joints, grasp + [0, 0, APPROACH], R, q_grasp)
    targets = [key(0.0, q_above, FINGER_OPEN)]
    targets += line(0.0, T_DESCEND, APPROACH, 0.0, 6, FINGER_OPEN, q_above)
    targets += [key(T_CLOSE, q_grasp, FINGER_OPEN), key(T_CLOSED, q_grasp, FINGER_SQUEEZE),
                key(T_LIFT, q_grasp, FINGER_SQUEEZE)]
    targets += line(T_LIFT, T_LIFTED, 0.0, LIFT, 12, FINGER_SQUEEZE, q_grasp)

    mass = 0.3
    # A thin-walled cup of radius 4.2 cm and height 7.2 cm: I_axis = m r²,
    # I_transverse = m (r²/2 + h²/12), the handle's share neglected.
    r, h = 0.042, 0.072
    i_axis, i_trans = mass * r * r, mass * (r * r / 2 + h * h / 12)
    return {
        "name": "panda_mug_grasp",
        "dt": 0.001,
        "time": T_END,
        # A 2 mm contact margin (the default is 5 mm): the hand moves at most
        # 0.2 mm a step, and the mug's inner floor, 5 to 7 mm above its base,
        # stays out of the table's pair (3x fewer triangles to test there).
        "solver": {"kind": "lemke", "friction_directions": 4, "contact_margin": 0.002},
        "friction": {"default": 0.8},
        "bodies": [
            {"name": "table", "static": True, "shape": {"shape": "box", "size": [0.5, 0.6, 0.1]},
             "pose": {"p": [0.5, 0.0, -0.05]}},
            {"name": "mug",
             "shape": {"shape": "mesh", "file": "/usr/share/mujoco/model/mug/mug.obj", "scale": 0.01,
                       "margin": LAYER},
             "mass": mass, "inertia": [round(i_trans, 9), round(i_axis, 9), round(i_trans, 9)],
             "com": [0.0, 0.036, 0.0],
             # mesh y up: turned +90 deg about x
             "pose": {"p": [float(MUG_CENTRE[0]), float(MUG_CENTRE[1]), LAYER],
                      "q": [math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0]}},
        ],
        "robots": [{
            "urdf": "robots/panda_hand.urdf",
            "q": [round(float(v), 6) for v in q_above] + [FINGER_OPEN],
            "kp": [5000] * 7 + [2000],
            "kd": [100] * 7 + [20],
            "targets": targets,
        }],
    }


# How far a shipped number may be from the script's: the waypoints are
# rounded to 1e-6, and numpy's matrix products take another kernel on
# another processor (OpenBLAS picks one for the CPU it runs on), so the
# last rounded digit of a value near a half may differ by one.
CHECK_TOLERANCE = 2e-6


def first_difference(shipped, written, where="the scene"):
    """Where `shipped` and `written` differ (numbers by more than
    CHECK_TOLERANCE, anything else at all), or None."""
    if isinstance(shipped, dict) and isinstance(written, dict):
        if shipped.keys() != written.keys():
            return f"{where}: keys {sorted(shipped)} against {sorted(written)}"
        for k in shipped:
            found = first_difference(shipped[k], written[k], f"{where}.{k}")
            if found is not None:
                return found
        return None
    if isinstance(shipped, list) and isinstance(written, list):
        if len(shipped) != len(written):
            return f"{where}: {len(shipped)} items against {len(written)}"
        for i, (a, b) in enumerate(zip(shipped, written)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found is not None:
                return found
        return None
    numbers = (int, float)
    if (isinstance(shipped, numbers) and isinstance(written, numbers) and not isinstance(shipped, bool)
            and not isinstance(written, bool)):
        return None if abs(shipped - written) <= CHECK_TOLERANCE else f"{where}: {shipped} against {written}"
    return None if shipped == written else f"{where}: {shipped!r} against {written!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped scene instead of writing it")
    args = ap.parse_args()
    written = scene()
    if args.check:
        where = first_difference(json.loads(SCENE.read_text()), written)
        if where is not None:
            print(f"{SCENE} differs from what {__file__} writes, at {where}", file=sys.stderr)
            return 1
        return 0
    SCENE.write_text(json.dumps(written, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
