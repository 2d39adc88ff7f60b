# SPDX-License-Identifier: BSD-3-Clause
"""Shapes: construction, properties, conversion to Shape, mass properties
against closed forms, and rejected input."""
import math
import unittest

import numpy as np

import proxima


class ShapesTest(unittest.TestCase):
    def test_every_shape_keeps_its_parameters_and_margin(self):
        s = proxima.Sphere(0.5, margin=0.01)
        self.assertEqual((s.radius, s.margin), (0.5, 0.01))
        c = proxima.Capsule(0.1, 0.4)
        self.assertEqual((c.radius, c.length, c.margin), (0.1, 0.4, 0.0))
        self.assertEqual(proxima.Cylinder(0.2, 1.0, 0.003).length, 1.0)
        self.assertEqual(proxima.Cone(0.2, 1.0).radius, 0.2)
        np.testing.assert_array_equal(proxima.Box([1, 2, 3]).size, [1, 2, 3])
        np.testing.assert_array_equal(proxima.Box(1, 2, 3, margin=0.1).half_extents, [0.5, 1, 1.5])
        np.testing.assert_array_equal(proxima.Ellipsoid((0.1, 0.2, 0.3)).radii, [0.1, 0.2, 0.3])
        h = proxima.Halfspace([0, 0, 2], 0.5)
        np.testing.assert_array_equal(h.normal, [0, 0, 1])  # normalized
        self.assertEqual(h.offset, 0.5)

    def test_polytope_is_the_hull_of_its_points(self):
        corners = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
        points = np.vstack([corners, [[0.5, 0.5, 0.5], [0.2, 0.3, 0.4]], corners])  # interior and duplicates
        p = proxima.ConvexPolytope(points)
        self.assertEqual(sorted(map(tuple, p.vertices)), sorted(map(tuple, corners)))
        self.assertEqual(len(p.faces), 6)
        self.assertAlmostEqual(p.mass_properties().volume, 1.0, places=12)

    def test_mass_properties_match_closed_forms(self):
        r = 0.3
        m = proxima.Sphere(r, margin=0.1).mass_properties()  # the margin is not matter
        self.assertAlmostEqual(m.volume, 4 / 3 * math.pi * r ** 3, places=12)
        np.testing.assert_allclose(m.inertia, np.eye(3) * 0.4 * m.volume * r * r, atol=1e-14)
        b = proxima.Box(1, 2, 3).mass_properties()
        self.assertAlmostEqual(b.volume, 6.0, places=12)
        np.testing.assert_allclose(np.diag(b.inertia), 6.0 / 12 * np.array([4 + 9, 1 + 9, 1 + 4]), rtol=1e-12)
        with self.assertRaisesRegex(ValueError, "halfspace"):
            proxima.Halfspace([0, 0, 1], 0).mass_properties()

    def test_shapes_convert_to_shape(self):
        for s in [proxima.Sphere(1), proxima.Capsule(1, 1), proxima.Cylinder(1, 1), proxima.Cone(1, 1),
                  proxima.Box(1, 1, 1), proxima.Ellipsoid([1, 2, 3]), proxima.Halfspace([0, 0, 1], 0),
                  proxima.ConvexPolytope(np.eye(3).tolist() + [[0, 0, 0]])]:
            shape = s.to_shape()
            self.assertIsInstance(shape, proxima.Shape)
            self.assertIsInstance(shape.shape, type(s))
            self.assertEqual(proxima.Shape(s).type, shape.type)
            # Queries take the shape and its Shape alike.
            far = ([0.3, 0.2, 5.0], [1, 0, 0, 0])
            self.assertEqual(proxima.distance(shape, None, proxima.Sphere(1), far).distance,
                             proxima.distance(s, None, proxima.Sphere(1), far).distance)
        self.assertEqual(proxima.Sphere(1).to_shape().type, "sphere")
        self.assertEqual(proxima.ConvexPolytope(np.eye(3).tolist() + [[0, 0, 0]]).to_shape().type, "convex")

    def test_bounds_include_the_margin_and_follow_the_pose(self):
        box = proxima.Box(2, 2, 2, margin=0.5)
        np.testing.assert_allclose(box.aabb(), [[-1.5] * 3, [1.5] * 3])
        np.testing.assert_allclose(box.aabb(([1, 2, 3], [1, 0, 0, 0])), [[-0.5, 0.5, 1.5], [2.5, 3.5, 4.5]])
        np.testing.assert_allclose(proxima.Sphere(1).to_shape().aabb(), [[-1] * 3, [1] * 3])

    def test_bad_sizes_raise_value_error_naming_the_shape_and_reason(self):
        with self.assertRaises(ValueError) as e:
            proxima.Sphere(-1.0)
        self.assertIn("sphere", str(e.exception))
        self.assertIn("radius", str(e.exception))
        self.assertIsInstance(e.exception, proxima.Error)
        with self.assertRaisesRegex(ValueError, "capsule.*length"):
            proxima.Capsule(0.1, float("nan"))
        with self.assertRaisesRegex(ValueError, "margin"):
            proxima.Box(1, 1, 1, margin=-0.1)
        with self.assertRaisesRegex(ValueError, "range of lengths"):
            proxima.Sphere(1e300)
        with self.assertRaises(ValueError):
            proxima.ConvexPolytope([[0, 0, 0], [1, 0, 0], [0, 1, 0]])  # flat without a margin
        proxima.ConvexPolytope([[0, 0, 0], [1, 0, 0], [0, 1, 0]], margin=0.01)  # flat with one is fine

    def test_wrong_array_shapes_are_rejected(self):
        with self.assertRaisesRegex(ValueError, r"size: expected 3 numbers, got shape \(2,\)"):
            proxima.Box([1, 2])
        with self.assertRaisesRegex(ValueError, r"points: expected an \(N, 3\) array"):
            proxima.ConvexPolytope(np.zeros((4, 2)))
        with self.assertRaises(TypeError):
            proxima.Ellipsoid("abc")
        with self.assertRaises(TypeError):
            proxima.Sphere("one")
        with self.assertRaises(TypeError):
            proxima.Shape(3.0)


if __name__ == "__main__":
    unittest.main()
