# SPDX-License-Identifier: BSD-3-Clause
"""PenetrationCache along a sequence of poses: a box given as a
ConvexPolytope (its eight corners) sliding and turning on a Box, in and out
of contact. Ground truth from the separating-axis theorem on the two boxes
in numpy (the least overlap over the 15 axes is the penetration depth);
the answers with the cache equal it and the answers without the cache, in
single calls and in batches carried on from one batch to the next; a
non-finite pose is its row's invalid_input; misuse raises ValueError naming
`cache`, and a refused batch leaves the cache as it was."""
import math
import unittest

import numpy as np

import proxima
from helpers import CUBE_TRIANGLES, CUBE_VERTICES, matrix, rotation

HALF_P = np.array([0.3, 0.2, 0.15])  # the polytope's box
HALF_B = np.array([0.5, 0.3, 0.2])  # the Box (1 x 0.6 x 0.4), at the origin
TILT = rotation([1.0, 2.0, 0.5], 0.3)


def corners(half):
    return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half


def sat_depth(Ra, ca, ha, Rb, cb, hb):
    """Penetration depth of two overlapping boxes (rotation, centre, half
    extents): the least overlap along the face normals and the edges'
    cross products; None when some axis separates them."""
    axes = [Ra[:, i] for i in range(3)] + [Rb[:, j] for j in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(Ra[:, i], Rb[:, j])
            if np.linalg.norm(c) > 1e-9:  # parallel edges: covered by the faces
                axes.append(c / np.linalg.norm(c))
    least = math.inf
    for u in axes:
        reach = np.abs(Ra.T @ u) @ ha + np.abs(Rb.T @ u) @ hb
        overlap = reach - abs(u @ (ca - cb))
        if overlap <= 0.0:
            return None
        least = min(least, overlap)
    return least


def trajectory(n):
    """The polytope's poses: it turns slowly about the vertical and slides,
    its lowest point from 2 cm into the Box's top to 1 cm above it."""
    poses, truth = [], []
    for k in range(n):
        s = k / (n - 1)
        R = rotation([0.0, 0.0, 1.0], 0.8 * s) @ TILT
        lowest = np.abs(R[2, :]) @ HALF_P
        sink = 0.02 * math.cos(3.0 * math.pi * s) + 0.005  # > 0: into the Box
        c = np.array([0.15 * math.sin(2.0 * s), 0.1 * s - 0.05, HALF_B[2] + lowest - sink])
        poses.append(matrix(R, c))
        depth = sat_depth(R, c, HALF_P, np.eye(3), np.zeros(3), HALF_B)
        truth.append(None if depth is None else -depth)
    return np.array(poses), truth


class PenetrationCacheTest(unittest.TestCase):
    def setUp(self):
        self.poly = proxima.ConvexPolytope(corners(HALF_P))
        self.box = proxima.Box([1.0, 0.6, 0.4])
        self.poses, self.truth = trajectory(400)

    def check_against_truth(self, distances):
        overlapping = 0
        for k, truth in enumerate(self.truth):
            if truth is not None:
                overlapping += 1
                self.assertAlmostEqual(distances[k], truth, delta=1e-9, msg=f"row {k}")
            else:
                self.assertGreater(distances[k], 0.0, msg=f"row {k}")
        # The sequence goes in and out of contact.
        self.assertGreater(overlapping, 100)
        self.assertLess(overlapping, len(self.truth) - 50)

    def test_single_calls_follow_the_pair(self):
        cache = proxima.PenetrationCache()
        self.assertFalse(cache.holds_contact)
        with_cache, without = [], []
        for k, pose in enumerate(self.poses):
            r = proxima.signed_distance(self.poly, pose, self.box, None, cache=cache)
            plain = proxima.signed_distance(self.poly, pose, self.box, None)
            self.assertEqual(r.status, "ok")
            # It keeps a contact's normal exactly while the pair overlaps.
            self.assertEqual(cache.holds_contact, r.distance < 0.0, msg=f"row {k}")
            with_cache.append(r.distance)
            without.append(plain.distance)
            np.testing.assert_allclose(r.normal, plain.normal, atol=1e-7)
        self.check_against_truth(with_cache)
        np.testing.assert_allclose(with_cache, without, atol=1e-9)
        cache.clear()
        self.assertFalse(cache.holds_contact)
        self.assertIn("holds_contact=False", repr(cache))

    def test_batches_carry_the_cache_on(self):
        plain = proxima.signed_distance_batch(self.poly, self.poses, self.box, np.eye(4))
        cache = proxima.PenetrationCache()
        parts = [
            proxima.signed_distance_batch(self.poly, self.poses[i : i + 100], self.box, np.eye(4), cache=cache)
            for i in range(0, len(self.poses), 100)
        ]
        distance = np.concatenate([p.distance for p in parts])
        self.assertTrue(all(p.ok.all() for p in parts))
        self.check_against_truth(distance)
        np.testing.assert_allclose(distance, plain.distance, atol=1e-9)
        np.testing.assert_allclose(np.concatenate([p.point_a for p in parts]), plain.point_a, atol=1e-7)
        # The cache is where the last row left it.
        self.assertEqual(cache.holds_contact, bool(distance[-1] < 0.0))

    def test_misuse_names_the_cache(self):
        cache = proxima.PenetrationCache()
        cube = proxima.Bvh(proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES))
        for call in (
            lambda: proxima.signed_distance(self.poly, None, self.box, None, method="gjk_epa", cache=cache),
            lambda: proxima.signed_distance(self.poly, None, self.box, None, method="sat", cache=cache),
            lambda: proxima.signed_distance(cube, None, self.box, None, cache=cache),
            lambda: proxima.signed_distance_batch(self.poly, self.poses, self.box, np.eye(4), threads=2, cache=cache),
            lambda: proxima.signed_distance_batch(self.poly, self.poses, self.box, np.eye(4), method="mpr",
                                                  cache=cache),
        ):
            with self.assertRaisesRegex(ValueError, "^cache: "):
                call()
        with self.assertRaises(TypeError):
            proxima.signed_distance(self.poly, None, self.box, None, cache="warm")

    def test_a_non_finite_pose_is_its_row_invalid_input(self):
        cache = proxima.PenetrationCache()
        poses = self.poses.copy()
        poses[5, 0, 3] = math.nan
        poses[6, :3, :3] = math.inf
        r = proxima.signed_distance_batch(self.poly, poses, self.box, np.eye(4), cache=cache)
        self.assertEqual(list(r.status[5:7]), ["invalid_input", "invalid_input"])
        self.assertFalse(np.isnan(r.distance).any())
        # The rows after them follow the pair as before.
        plain = proxima.signed_distance_batch(self.poly, self.poses, self.box, np.eye(4))
        keep = np.r_[0:5, 7:len(poses)]
        self.assertTrue(r.ok[keep].all())
        np.testing.assert_allclose(r.distance[keep], plain.distance[keep], atol=1e-9)
        single = proxima.signed_distance(self.poly, poses[5], self.box, None, cache=cache)
        self.assertEqual(single.status, "invalid_input")

    def test_a_refused_batch_leaves_the_cache_as_it_was(self):
        cache = proxima.PenetrationCache()
        poses = self.poses.copy()
        poses[-1, :3, :3] *= 2.0  # not rigid: the batch is refused
        self.assertIsNotNone(self.truth[0])  # the first rows overlap
        with self.assertRaisesRegex(ValueError, r"^poses_a\[399\]"):
            proxima.signed_distance_batch(self.poly, poses, self.box, np.eye(4), cache=cache)
        self.assertFalse(cache.holds_contact)


if __name__ == "__main__":
    unittest.main()
