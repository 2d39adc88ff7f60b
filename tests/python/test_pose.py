# SPDX-License-Identifier: BSD-3-Clause
"""Poses: Pose(p, q), 4x4 matrices and (p, q) pairs agree with numpy
rotations; non-rigid matrices are rejected."""
import math
import unittest

import numpy as np

import proxima
from helpers import matrix, rotation


class PoseTest(unittest.TestCase):
    def test_quaternion_matrix_and_axis_angle_agree(self):
        angle = 0.7
        axis = np.array([1.0, -2.0, 0.5])
        axis /= np.linalg.norm(axis)
        q = [math.cos(angle / 2), *(math.sin(angle / 2) * axis)]
        R = rotation(axis, angle)
        a = proxima.Pose(p=[1, 2, 3], q=q)
        np.testing.assert_allclose(a.R, R, atol=1e-15)
        np.testing.assert_allclose(a.matrix(), matrix(R, [1, 2, 3]), atol=1e-15)
        np.testing.assert_allclose(proxima.Pose.from_matrix(matrix(R, [1, 2, 3])).q, q, atol=1e-15)
        np.testing.assert_allclose(proxima.Pose.from_axis_angle(axis, angle, [1, 2, 3]).R, R, atol=1e-15)
        np.testing.assert_array_equal(a.p, [1, 2, 3])

    def test_quaternions_are_normalized(self):
        np.testing.assert_allclose(proxima.Pose(q=[2, 0, 0, 2]).q, [math.sqrt(0.5), 0, 0, math.sqrt(0.5)])
        np.testing.assert_allclose(proxima.Pose(q=[-1, 0, 0, 0]).q, [1, 0, 0, 0])  # w >= 0

    def test_composition_inverse_and_points(self):
        a = proxima.Pose([1, 0, 0], [math.cos(0.3), 0, 0, math.sin(0.3)])
        b = proxima.Pose([0, 2, 0], [math.cos(0.2), math.sin(0.2), 0, 0])
        np.testing.assert_allclose((a * b).matrix(), a.matrix() @ b.matrix(), atol=1e-15)
        np.testing.assert_allclose((a * a.inverse()).matrix(), np.eye(4), atol=1e-15)
        pts = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 0.5]])
        np.testing.assert_allclose(a.apply(pts), pts @ a.R.T + a.p, atol=1e-15)
        np.testing.assert_allclose(a.apply(pts[0]), a.R @ pts[0] + a.p, atol=1e-15)

    def test_rejected_poses_name_the_reason(self):
        with self.assertRaisesRegex(ValueError, "not orthonormal"):
            proxima.Pose.from_matrix(np.diag([2.0, 1.0, 1.0, 1.0]))
        with self.assertRaisesRegex(ValueError, "reflection"):
            proxima.Pose.from_matrix(np.diag([-1.0, 1.0, 1.0, 1.0]))
        with self.assertRaisesRegex(ValueError, "last row"):
            m = np.eye(4)
            m[3, 0] = 1
            proxima.Pose.from_matrix(m)
        with self.assertRaisesRegex(ValueError, "quaternion norm"):
            proxima.Pose(q=[0, 0, 0, 0])
        with self.assertRaisesRegex(ValueError, "non-finite"):
            proxima.Pose(p=[float("nan"), 0, 0])
        with self.assertRaisesRegex(ValueError, r"got an array of shape \(3, 3\)"):
            proxima.Pose.from_matrix(np.eye(3))
        with self.assertRaisesRegex(ValueError, r"q: expected 4 numbers"):
            proxima.Pose(q=[1, 0, 0])


if __name__ == "__main__":
    unittest.main()
