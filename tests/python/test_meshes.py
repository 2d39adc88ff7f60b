# SPDX-License-Identifier: BSD-3-Clause
"""Triangle meshes from arrays and from a temporary OBJ file, their BVHs,
and mesh queries against closed forms for a unit cube; file errors name the
path."""
import math
import os
import tempfile
import unittest

import numpy as np

import proxima
from helpers import CUBE_TRIANGLES, CUBE_VERTICES, matrix, write_cube_obj


class MeshesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.obj = os.path.join(cls.tmp.name, "cube.obj")
        write_cube_obj(cls.obj)
        cls.cube = proxima.Bvh(proxima.read_mesh(cls.obj))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_obj_file_reads_back_as_written(self):
        m = proxima.read_mesh(self.obj, scale=2.0, margin=0.01)
        np.testing.assert_array_equal(m.vertices, 2.0 * CUBE_VERTICES)
        np.testing.assert_array_equal(m.triangles, CUBE_TRIANGLES)
        self.assertEqual(m.margin, 0.01)
        self.assertTrue(m.is_closed)
        self.assertAlmostEqual(m.mass_properties().volume, 8.0, places=12)
        self.assertEqual(proxima.TriangleMesh.from_file(self.obj).triangle_count, 12)

    def test_mesh_from_arrays(self):
        m = proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES.astype(np.int32), margin=0.0, name="cube")
        self.assertEqual((m.triangle_count, m.name), (12, "cube"))
        open_mesh = proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES[:10])
        self.assertFalse(open_mesh.is_closed)
        self.assertIsNone(open_mesh.mass_properties())
        np.testing.assert_allclose(m.aabb(), [[-0.5] * 3, [0.5] * 3])
        b = proxima.Bvh(m, volume="aabb", leaf_size=2)
        self.assertGreaterEqual(b.depth, 1)
        self.assertEqual(b.mesh.triangle_count, 12)

    def test_a_build_on_threads_answers_as_one_on_one_thread(self):
        # A wavy 100 x 100 grid (20,000 triangles, enough to be split over
        # threads): the same hierarchy and the same distances to spheres
        # placed over it. The grid lies in |z| <= 0.02, which brackets them.
        n = 100
        x, y = np.meshgrid(np.arange(n + 1) * 0.01, np.arange(n + 1) * 0.01, indexing="ij")
        z = 0.02 * np.sin(7.0 * x) * np.cos(5.0 * y)
        vertices = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
        k = np.arange(n)[:, None] * (n + 1) + np.arange(n)[None, :]
        k = k.ravel()
        triangles = np.concatenate([np.stack([k, k + n + 1, k + n + 2], 1), np.stack([k, k + n + 2, k + 1], 1)])
        mesh = proxima.TriangleMesh(vertices, triangles)
        one = proxima.Bvh(mesh, threads=1)
        two = proxima.Bvh(mesh, threads=2)
        self.assertEqual((one.node_count, one.depth), (two.node_count, two.depth))
        rng = np.random.default_rng(5)
        for p in rng.uniform([0.0, 0.0, 0.1], [1.0, 1.0, 0.3], size=(20, 3)):
            a = proxima.distance(one, None, proxima.Sphere(0.05), matrix(p=p))
            b = proxima.distance(two, None, proxima.Sphere(0.05), matrix(p=p))
            self.assertEqual(a.distance, b.distance)
            self.assertGreaterEqual(a.distance, p[2] - 0.02 - 0.05 - 1e-12)
            self.assertLessEqual(a.distance, p[2] + 0.02 - 0.05 + 1e-12)

    def test_mesh_distances_match_the_cube(self):
        ball = proxima.Sphere(0.5)
        d = proxima.distance(self.cube, None, ball, matrix(p=[2.0, 0.3, -0.1]))
        self.assertEqual(d.status, "ok")
        self.assertAlmostEqual(d.distance, 1.0, places=9)  # 2 - 0.5 (cube face) - 0.5 (radius)
        np.testing.assert_allclose(d.normal, [-1, 0, 0], atol=1e-9)  # from the ball (B) to the cube (A)
        self.assertGreaterEqual(d.triangle_a, 0)
        self.assertEqual(d.triangle_b, -1)
        # The other order: normal negated, points and triangles exchanged.
        e = proxima.distance(ball, matrix(p=[2.0, 0.3, -0.1]), self.cube, None)
        self.assertAlmostEqual(e.distance, d.distance, places=15)
        np.testing.assert_allclose(e.normal, -d.normal, atol=1e-15)
        np.testing.assert_allclose(e.point_a, d.point_b, atol=1e-15)
        self.assertEqual((e.triangle_a, e.triangle_b), (-1, d.triangle_a))
        # Two cubes, one turned 45 degrees about z: its edge at x = 3 - sqrt(0.5).
        turned = ([3.0, 0.0, 0.0], [math.cos(math.pi / 8), 0, 0, math.sin(math.pi / 8)])
        mm = proxima.distance(self.cube, None, self.cube, turned)
        self.assertAlmostEqual(mm.distance, 3.0 - math.sqrt(0.5) - 0.5, places=9)
        self.assertTrue(proxima.collide(self.cube, None, self.cube, ([0.9, 0, 0], [1, 0, 0, 0])).collide)
        self.assertFalse(proxima.collide(self.cube, None, ball, ([1.1, 0, 0], [1, 0, 0, 0])).collide)
        self.assertEqual(proxima.signed_distance(self.cube, None, ball, None).status, "not_implemented")

    def test_mesh_time_of_impact_and_contacts_against_a_floor(self):
        floor = proxima.Halfspace([0, 0, 1], 0.0)
        # Falling from z = 2 to z = -1: the bottom face (z - 0.5) meets the floor at z = 0.5, t = 0.5.
        t = proxima.time_of_impact(self.cube, matrix(p=[0, 0, 2]), matrix(p=[0, 0, -1]), floor, None, None)
        self.assertEqual(t.status, "ok")
        self.assertTrue(t.collide)
        self.assertLessEqual(t.time, 0.5 + 1e-12)
        self.assertGreaterEqual(t.time, 0.5 - 1e-6 / 3.0)
        self.assertGreaterEqual(t.witness.triangle_a, 0)
        swapped = proxima.time_of_impact(floor, None, None, self.cube, matrix(p=[0, 0, 2]), matrix(p=[0, 0, -1]))
        self.assertEqual(swapped.time, t.time)
        np.testing.assert_allclose(swapped.witness.normal, -t.witness.normal)
        # Resting 1 mm into the floor: the four bottom corners, 1 mm deep, normal up.
        c = proxima.contacts(self.cube, matrix(p=[0, 0, 0.499]), floor, None, cluster=False)
        self.assertEqual(c.status, "ok")
        corners = sorted((x, y) for x in (-0.5, 0.5) for y in (-0.5, 0.5))
        self.assertEqual(sorted(set(map(tuple, np.round(c.points[:, :2], 9)))), corners)
        np.testing.assert_allclose(c.depths, 0.001, atol=1e-12)
        np.testing.assert_allclose(c.normals, [[0, 0, 1]] * len(c), atol=1e-12)
        flipped = proxima.contacts(floor, None, self.cube, matrix(p=[0, 0, 0.499]), cluster=False)
        np.testing.assert_allclose(flipped.normals, [[0, 0, -1]] * len(flipped), atol=1e-12)
        np.testing.assert_array_equal(flipped.feature_b, c.feature_a)

    def test_missing_and_malformed_files_name_the_path(self):
        missing = os.path.join(self.tmp.name, "nowhere", "missing.stl")
        with self.assertRaises(ValueError) as e:
            proxima.read_mesh(missing)
        self.assertIn(missing, str(e.exception))
        self.assertIn("no such file", str(e.exception))
        bad = os.path.join(self.tmp.name, "bad.obj")
        with open(bad, "w") as f:
            f.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
        with self.assertRaisesRegex(ValueError, "bad.obj: line 4"):
            proxima.read_mesh(bad)

    def test_bad_arrays_are_rejected(self):
        with self.assertRaisesRegex(TypeError, "triangles: expected integer"):
            proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES.astype(float))
        with self.assertRaisesRegex(ValueError, r"triangles\[0\]: vertex index -1"):
            proxima.TriangleMesh(CUBE_VERTICES, [[-1, 0, 1]])
        with self.assertRaisesRegex(ValueError, "uses vertex index 8, out of range"):
            proxima.TriangleMesh(CUBE_VERTICES, [[0, 1, 8]])
        with self.assertRaisesRegex(ValueError, r"vertices: expected an \(N, 3\) array"):
            proxima.TriangleMesh(CUBE_VERTICES[:, :2], CUBE_TRIANGLES)
        with self.assertRaisesRegex(ValueError, r"triangles: expected a \(T, 3\) array"):
            proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES.ravel())
        with self.assertRaisesRegex(ValueError, "leaf_size"):
            proxima.Bvh(self.cube.mesh, leaf_size=0)
        with self.assertRaisesRegex(ValueError, "bvh: threads: must be in"):
            proxima.Bvh(self.cube.mesh, threads=-1)
        with self.assertRaisesRegex(TypeError, r"proxima.Bvh\(mesh\)"):
            proxima.distance(self.cube.mesh, None, proxima.Sphere(1), None)
        with self.assertRaisesRegex(ValueError, "method: applies to convex pairs only"):
            proxima.distance(self.cube, None, proxima.Sphere(1), None, method="gjk")


if __name__ == "__main__":
    unittest.main()
