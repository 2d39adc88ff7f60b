# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the Python tests: poses built with numpy alone (independent of
proxima.Pose), a unit cube mesh, and the repository's data folder."""
import math
import os

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def rotation(axis, angle):
    """Rodrigues' formula: the rotation by `angle` about `axis`."""
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def matrix(R=None, p=(0, 0, 0)):
    m = np.eye(4)
    if R is not None:
        m[:3, :3] = R
    m[:3, 3] = p
    return m


def random_rotation(rng):
    """Uniform rotation from a normalized Gaussian quaternion."""
    w, x, y, z = _unit(rng.normal(size=4))
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _unit(v):
    return v / np.linalg.norm(v)


# The cube [-0.5, 0.5]^3: 8 corners, 12 outward-facing triangles.
CUBE_VERTICES = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
CUBE_TRIANGLES = np.array([
    [0, 1, 3], [0, 3, 2],  # x = -0.5
    [4, 6, 7], [4, 7, 5],  # x = +0.5
    [0, 4, 5], [0, 5, 1],  # y = -0.5
    [2, 3, 7], [2, 7, 6],  # y = +0.5
    [0, 2, 6], [0, 6, 4],  # z = -0.5
    [1, 5, 7], [1, 7, 3],  # z = +0.5
])


def write_cube_obj(path):
    with open(path, "w") as f:
        f.write("# unit cube\n")
        for v in CUBE_VERTICES:
            f.write("v %r %r %r\n" % tuple(float(x) for x in v))
        for t in CUBE_TRIANGLES:
            f.write("f %d %d %d\n" % tuple(t + 1))
