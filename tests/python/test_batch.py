# SPDX-License-Identifier: BSD-3-Clause
"""Batched queries: every row equals the single query at its poses, bit for
bit; broadcasting a single pose; errors naming the row."""
import unittest

import numpy as np

import proxima
from helpers import CUBE_TRIANGLES, CUBE_VERTICES, matrix, random_rotation


def random_poses(rng, n, spread):
    return np.stack([matrix(random_rotation(rng), rng.uniform(-spread, spread, size=3)) for _ in range(n)])


class BatchTest(unittest.TestCase):
    def check_rows(self, a, poses_a, b, poses_b):
        n = max(len(p) if p.ndim == 3 else 1 for p in (poses_a, poses_b))
        pose_a = (lambda i: poses_a[i]) if poses_a.ndim == 3 else (lambda i: poses_a)
        pose_b = (lambda i: poses_b[i]) if poses_b.ndim == 3 else (lambda i: poses_b)
        for signed, batch_fn, single_fn in [(False, proxima.distance_batch, proxima.distance),
                                            (True, proxima.signed_distance_batch, proxima.signed_distance)]:
            batch = batch_fn(a, poses_a, b, poses_b)
            self.assertEqual(len(batch), n)
            self.assertEqual(batch.normal.shape, (n, 3))
            for i in range(n):
                one = single_fn(a, pose_a(i), b, pose_b(i))
                self.assertEqual(batch.status[i], one.status)
                self.assertEqual(batch.distance[i], one.distance, (signed, i))
                np.testing.assert_array_equal(batch.normal[i], one.normal)
                np.testing.assert_array_equal(batch.point_a[i], one.point_a)
                np.testing.assert_array_equal(batch.point_b[i], one.point_b)
                self.assertEqual((batch.triangle_a[i], batch.triangle_b[i]), (one.triangle_a, one.triangle_b))
        collide = proxima.collide_batch(a, poses_a, b, poses_b)
        for i in range(n):
            self.assertEqual(collide.collide[i], proxima.collide(a, pose_a(i), b, pose_b(i)).collide)
        return collide

    def test_convex_rows_equal_single_queries(self):
        rng = np.random.default_rng(4)
        pairs = [(proxima.Sphere(0.3), proxima.Box(0.5, 0.4, 0.3)),
                 (proxima.Capsule(0.1, 0.6, margin=0.01), proxima.Cylinder(0.2, 0.5)),
                 (proxima.ConvexPolytope(rng.uniform(-0.3, 0.3, size=(20, 3))), proxima.Ellipsoid([0.2, 0.3, 0.1]))]
        for a, b in pairs:
            collide = self.check_rows(a, random_poses(rng, 60, 0.6), b, random_poses(rng, 60, 0.6))
            self.assertTrue(collide.collide.any() and not collide.collide.all())

    def test_mesh_rows_equal_single_queries(self):
        rng = np.random.default_rng(5)
        cube = proxima.Bvh(proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES))
        poses = random_poses(rng, 30, 1.5)
        self.check_rows(cube, poses, proxima.Capsule(0.1, 0.4), np.eye(4))
        self.check_rows(proxima.Sphere(0.2), poses, cube, random_poses(rng, 30, 0.5))
        self.check_rows(cube, poses, cube, random_poses(rng, 30, 1.0))

    def test_one_pose_is_used_for_every_row(self):
        rng = np.random.default_rng(6)
        poses = random_poses(rng, 10, 1.0)
        a, b = proxima.Sphere(0.3), proxima.Box(1, 1, 1)
        r = proxima.distance_batch(a, poses, b, np.eye(4))
        s = proxima.distance_batch(b, np.eye(4), a, poses)
        np.testing.assert_array_equal(r.distance, s.distance)
        np.testing.assert_array_equal(r.normal, -s.normal)
        self.assertEqual(len(proxima.distance_batch(a, np.eye(4), b, np.eye(4))), 1)
        self.assertEqual(len(proxima.distance_batch(a, np.zeros((0, 4, 4)), b, np.eye(4))), 0)

    def test_non_finite_rows_answer_invalid_input_alone(self):
        poses = np.stack([matrix(p=[2, 0, 0]), matrix(p=[np.nan, 0, 0]), matrix(p=[0, 3, 0])])
        r = proxima.distance_batch(proxima.Sphere(0.5), poses, proxima.Sphere(0.5), np.eye(4))
        self.assertEqual(list(r.status), ["ok", "invalid_input", "ok"])
        self.assertEqual(list(r.ok), [True, False, True])
        np.testing.assert_allclose(r.distance[[0, 2]], [1.0, 2.0], atol=1e-15)
        self.assertFalse(np.isnan(r.distance).any() or np.isnan(r.normal).any())
        self.assertEqual(proxima.STATUS_NAMES[r.status_code[1]], "invalid_input")

    def test_bad_pose_arrays_raise(self):
        a = proxima.Sphere(1)
        with self.assertRaisesRegex(ValueError, r"poses_a: expected an \(N, 4, 4\) array.*\(5, 3, 4\)"):
            proxima.distance_batch(a, np.zeros((5, 3, 4)), a, np.eye(4))
        with self.assertRaisesRegex(ValueError, "5 and 4 poses"):
            proxima.distance_batch(a, np.tile(np.eye(4), (5, 1, 1)), a, np.tile(np.eye(4), (4, 1, 1)))
        poses = np.tile(np.eye(4), (3, 1, 1))
        poses[2, 0, 0] = 2.0
        with self.assertRaisesRegex(ValueError, r"poses_b\[2\]: the rotation block is not orthonormal"):
            proxima.collide_batch(a, np.eye(4), a, poses)
        with self.assertRaises(TypeError):
            proxima.distance_batch(a, "poses", a, np.eye(4))

    def test_threads_give_the_single_threaded_rows(self):
        rng = np.random.default_rng(9)
        cube = proxima.Bvh(proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES))
        pairs = [(proxima.Box(0.5, 0.4, 0.3), proxima.Capsule(0.1, 0.6)), (cube, proxima.Sphere(0.3)), (cube, cube)]
        for a, b in pairs:
            poses_a, poses_b = random_poses(rng, 500, 1.0), random_poses(rng, 500, 1.0)
            poses_a[137, 0, 3] = np.nan  # a non-finite row stays invalid_input in its own slot
            for fn in (proxima.distance_batch, proxima.signed_distance_batch):
                one = fn(a, poses_a, b, poses_b)
                for threads in (2, 3, 0):
                    many = fn(a, poses_a, b, poses_b, threads=threads)
                    for field in ("distance", "normal", "point_a", "point_b", "status_code", "triangle_a",
                                  "triangle_b"):
                        np.testing.assert_array_equal(getattr(many, field), getattr(one, field), field)
                self.assertEqual(one.status[137], "invalid_input")
                self.assertEqual(int((one.status == "invalid_input").sum()), 1)
            one = proxima.collide_batch(a, poses_a, b, poses_b)
            many = proxima.collide_batch(a, poses_a, b, poses_b, threads=2)
            np.testing.assert_array_equal(many.collide, one.collide)
            np.testing.assert_array_equal(many.status_code, one.status_code)
            self.assertTrue(one.collide.any() and not one.collide.all())

    def test_threads_name_the_first_bad_row_and_refuse_negative_counts(self):
        a = proxima.Sphere(1)
        poses = np.tile(np.eye(4), (4000, 1, 1))
        poses[3900, 0, 0] = 2.0
        poses[2100, 1, 1] = 3.0
        for threads in (1, 2, 4):
            with self.assertRaisesRegex(ValueError, r"poses_b\[2100\]: the rotation block is not orthonormal"):
                proxima.distance_batch(a, np.eye(4), a, poses, threads=threads)
        for fn in (proxima.distance_batch, proxima.signed_distance_batch, proxima.collide_batch):
            with self.assertRaisesRegex(ValueError, r"threads: must be in \[0, "):
                fn(a, np.eye(4), a, np.eye(4), threads=-1)
            with self.assertRaisesRegex(ValueError, r"threads: must be in \[0, \d+\] .*got 100000"):
                fn(a, np.eye(4), a, np.eye(4), threads=100000)
            with self.assertRaises(TypeError):
                fn(a, np.eye(4), a, np.eye(4), threads="2")


if __name__ == "__main__":
    unittest.main()
