# SPDX-License-Identifier: BSD-3-Clause
"""Single queries against closed forms: sphere-sphere, box-halfspace, a box
resting on a box, and the time of impact of two moving spheres (the root of
a quadratic). Bad poses give status 'invalid_input', never NaN or a raise."""
import math
import unittest

import numpy as np

import proxima
from helpers import matrix, random_rotation

NAN = float("nan")


def sphere_pair_truth(ca, ra, cb, rb):
    """Distance, normal (B to A) and witness points of two spheres."""
    ca, cb = np.asarray(ca, float), np.asarray(cb, float)
    n = (ca - cb) / np.linalg.norm(ca - cb)
    return np.linalg.norm(ca - cb) - ra - rb, n, ca - ra * n, cb + rb * n


def box_halfspace_truth(half, R, c, normal, offset):
    """Signed distance of a box (half extents, pose R, c) above the plane
    normal . x = offset: its lowest corner's height along the normal."""
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    return float(n @ c - offset - np.abs(R.T @ n) @ half)


class QueriesTest(unittest.TestCase):
    def test_sphere_sphere_matches_the_closed_form(self):
        rng = np.random.default_rng(1)
        for _ in range(50):
            ra, rb = rng.uniform(0.1, 1.0, size=2)
            ma, mb = rng.uniform(0.0, 0.05, size=2)
            ca, cb = rng.uniform(-2, 2, size=3), rng.uniform(-2, 2, size=3)
            a, b = proxima.Sphere(ra, margin=ma), proxima.Sphere(rb, margin=mb)
            d, n, pa, pb = sphere_pair_truth(ca, ra + ma, cb, rb + mb)
            s = proxima.signed_distance(a, (ca, [1, 0, 0, 0]), b, (cb, [1, 0, 0, 0]))
            self.assertEqual(s.status, "ok")
            self.assertAlmostEqual(s.distance, d, places=12)
            np.testing.assert_allclose(s.normal, n, atol=1e-12)
            np.testing.assert_allclose(s.point_a, pa, atol=1e-12)
            np.testing.assert_allclose(s.point_b, pb, atol=1e-12)
            u = proxima.distance(a, matrix(p=ca), b, matrix(p=cb))
            self.assertAlmostEqual(u.distance, max(d, 0.0), places=12)
            self.assertEqual(proxima.collide(a, matrix(p=ca), b, matrix(p=cb)).collide, d <= 0)

    def test_box_halfspace_matches_the_lowest_corner(self):
        rng = np.random.default_rng(2)
        floor = proxima.Halfspace([0.2, -0.1, 1.0], 0.3)
        for _ in range(50):
            half = rng.uniform(0.05, 0.5, size=3)
            R = random_rotation(rng)
            c = rng.uniform(-1, 1, size=3)
            box = proxima.Box(2 * half)
            truth = box_halfspace_truth(half, R, c, [0.2, -0.1, 1.0], 0.3)
            s = proxima.signed_distance(box, matrix(R, c), floor, None)
            self.assertEqual(s.status, "ok")
            self.assertAlmostEqual(s.distance, truth, places=12)
            n = np.array([0.2, -0.1, 1.0]) / np.linalg.norm([0.2, -0.1, 1.0])
            np.testing.assert_allclose(s.normal, n, atol=1e-12)  # from the floor (B) to the box (A)
            np.testing.assert_allclose(s.point_b, s.point_a - s.distance * s.normal, atol=1e-12)
            self.assertEqual(proxima.collide(box, matrix(R, c), floor, None).collide, truth <= 0)

    def test_tolerance_on_both_sides_of_the_closed_form(self):
        rng = np.random.default_rng(7)
        for _ in range(40):
            ra, rb = rng.uniform(0.1, 0.5, size=2)
            ca, cb = rng.uniform(-2, 2, size=3), rng.uniform(-2, 2, size=3)
            d = sphere_pair_truth(ca, ra, cb, rb)[0]
            if d <= 1e-3:
                continue
            a, b = proxima.Sphere(ra), proxima.Sphere(rb)
            for t in (0.5 * d, 2.0 * d):
                r = proxima.tolerance(a, (ca, [1, 0, 0, 0]), b, (cb, [1, 0, 0, 0]), t)
                self.assertEqual(r.status, "ok")
                self.assertEqual(r.within, d <= t)
                self.assertAlmostEqual(r.distance, d, places=12)  # a closed form decides exactly
        # A capsule (GJK against a box) 0.3 m above a 1 m cube; a mesh answers without a distance.
        cube = proxima.Box([1, 1, 1])
        cap = proxima.Capsule(0.1, 0.4)
        above = ([0, 0, 0.5 + 0.3 + 0.1 + 0.2], [1, 0, 0, 0])
        self.assertTrue(proxima.tolerance(cap, above, cube, None, 0.31).within)
        far = proxima.tolerance(cap, above, cube, None, 0.29)
        self.assertFalse(far.within)
        self.assertGreater(far.distance, 0.29)
        self.assertLessEqual(far.distance, 0.3 + 1e-9)
        tri = proxima.Bvh(proxima.TriangleMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]))
        m = proxima.tolerance(proxima.Sphere(0.1), ([0.2, 0.2, 0.3], [1, 0, 0, 0]), tri, None, 0.25)
        self.assertTrue(m.within)
        self.assertIsNone(m.distance)
        self.assertEqual(m.triangle_b, 0)
        with self.assertRaises(ValueError):
            proxima.tolerance(cap, above, cube, None, -1.0)

    def test_pose_forms_give_the_same_answer(self):
        a, b = proxima.Capsule(0.1, 0.5), proxima.Box(1, 0.5, 0.2)
        q = [math.cos(0.4), 0.0, math.sin(0.4), 0.0]
        pose = proxima.Pose([0.3, 0.2, 0.9], q)
        forms = [pose, pose.matrix(), pose.matrix().tolist(), ([0.3, 0.2, 0.9], q), (np.array([0.3, 0.2, 0.9]), tuple(q))]
        answers = [proxima.distance(a, f, b, None) for f in forms]
        for r in answers:
            self.assertEqual(r.distance, answers[0].distance)
            np.testing.assert_array_equal(r.normal, answers[0].normal)

    def test_box_resting_on_a_box_has_four_corner_contacts(self):
        top, bottom = proxima.Box(1, 1, 1), proxima.Box(2, 2, 1)
        c = proxima.contacts(top, ([0, 0, 0.999], [1, 0, 0, 0]), bottom, None)
        self.assertEqual(c.status, "ok")
        self.assertEqual(len(c), 4)
        self.assertAlmostEqual(c.distance, -0.001, places=12)
        np.testing.assert_allclose(c.normal, [0, 0, 1], atol=1e-12)
        expected = sorted((x, y, 0.4995) for x in (-0.5, 0.5) for y in (-0.5, 0.5))
        np.testing.assert_allclose(sorted(map(tuple, c.points)), expected, atol=1e-12)
        np.testing.assert_allclose(c.depths, [0.001] * 4, atol=1e-12)
        np.testing.assert_allclose(c.normals, [[0, 0, 1]] * 4, atol=1e-12)
        np.testing.assert_array_equal(c.feature_a, [-1] * 4)
        self.assertEqual(len(proxima.contacts(top, ([0, 0, 0.999], [1, 0, 0, 0]), bottom, None, max_points=2)), 2)
        gap = proxima.contacts(top, ([0, 0, 1.01], [1, 0, 0, 0]), bottom, None, margin=0.02)
        np.testing.assert_allclose(gap.depths, [-0.01] * 4, atol=1e-12)
        self.assertEqual(len(proxima.contacts(top, ([0, 0, 1.01], [1, 0, 0, 0]), bottom, None)), 0)

    def test_time_of_impact_of_two_spheres_is_the_quadratics_root(self):
        rng = np.random.default_rng(3)
        hits = 0
        for _ in range(40):
            ra, rb, clearance = rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.3), rng.choice([0.0, 0.02])
            pa0, pa1 = rng.uniform(-1, 1, size=3), rng.uniform(-1, 1, size=3)
            pb0, pb1 = rng.uniform(-1, 1, size=3), rng.uniform(-1, 1, size=3)
            d0, v = pa0 - pb0, (pa1 - pa0) - (pb1 - pb0)
            reach = ra + rb + clearance
            if np.linalg.norm(d0) <= reach:
                continue
            # |d0 + t v| = reach: a t^2 + b t + c = 0, the smaller root.
            a, b, c = v @ v, 2 * d0 @ v, d0 @ d0 - reach ** 2
            disc = b * b - 4 * a * c
            root = (-b - math.sqrt(disc)) / (2 * a) if disc >= 0 else math.inf
            hit = 0 <= root <= 1
            # Spheres may spin on the way: their centres' paths are what count.
            qa_end = [math.cos(1.0), math.sin(1.0), 0, 0]
            r = proxima.time_of_impact(proxima.Sphere(ra), (pa0, [1, 0, 0, 0]), (pa1, qa_end),
                                       proxima.Sphere(rb), matrix(p=pb0), matrix(p=pb1), clearance=clearance)
            self.assertEqual(r.status, "ok")
            self.assertEqual(r.collide, hit)
            if hit:
                hits += 1
                # The first time within clearance + accuracy (1e-6 m), never after the root.
                closing = max(-(d0 + root * v) @ v / np.linalg.norm(d0 + root * v), 1e-3)
                self.assertLessEqual(r.time, root + 1e-12)
                self.assertGreaterEqual(r.time, root - 2e-6 / closing)
                self.assertLessEqual(r.witness.distance, clearance + 1e-6)
            else:
                self.assertEqual(r.time, 1.0)
        self.assertGreater(hits, 5)

    def test_non_finite_poses_answer_invalid_input(self):
        a, b = proxima.Sphere(1), proxima.Box(1, 1, 1)
        bad_poses = [matrix(p=[NAN, 0, 0]), ([0, 0, NAN], [1, 0, 0, 0]), ([0, 0, 0], [NAN, 0, 0, 0]),
                     ([1e300, 0, 0], [1, 0, 0, 0])]
        for bad in bad_poses:
            d = proxima.distance(a, bad, b, None)
            self.assertEqual(d.status, "invalid_input")
            for v in (d.distance, *d.normal, *d.point_a, *d.point_b):
                self.assertFalse(math.isnan(v))
            self.assertEqual(proxima.signed_distance(a, None, b, bad).status, "invalid_input")
            self.assertEqual(proxima.collide(a, bad, b, None).status, "invalid_input")
            self.assertEqual(proxima.contacts(a, bad, b, None).status, "invalid_input")
            t = proxima.time_of_impact(a, None, bad, b, None, None)
            self.assertEqual(t.status, "invalid_input")
            self.assertFalse(math.isnan(t.time))

    def test_bad_arguments_raise(self):
        a = proxima.Sphere(1)
        with self.assertRaisesRegex(ValueError, r"pose_b: expected a proxima.Pose, a 4x4 matrix.*shape \(3, 4\)"):
            proxima.distance(a, None, a, np.zeros((3, 4)))
        with self.assertRaisesRegex(ValueError, "pose_a: the rotation block is not orthonormal"):
            proxima.distance(a, np.diag([1.0, 2.0, 1.0, 1.0]), a, None)
        with self.assertRaisesRegex(ValueError, r"pose_a.p: expected 3 numbers"):
            proxima.distance(a, ([0, 0], [1, 0, 0, 0]), a, None)
        with self.assertRaises(TypeError):
            proxima.distance(a, "identity", a, None)
        with self.assertRaisesRegex(TypeError, "b: expected a convex shape"):
            proxima.distance(a, None, 3.0, None)
        with self.assertRaisesRegex(ValueError, "method: unknown"):
            proxima.distance(a, None, a, None, method="fastest")
        with self.assertRaisesRegex(ValueError, "clearance"):
            proxima.time_of_impact(a, None, None, a, None, None, clearance=-1)
        with self.assertRaisesRegex(ValueError, "margin"):
            proxima.contacts(a, None, a, None, margin=-1)
        with self.assertRaisesRegex(ValueError, "apply to pairs with a mesh only"):
            proxima.contacts(a, None, a, None, max_contacts=4)

    def test_methods_agree_on_a_separated_pair(self):
        a, b = proxima.Box(1, 1, 1), proxima.Box(1, 1, 1)
        pose_b = ([0.2, 0.1, 1.5], [math.cos(0.3), 0, 0, math.sin(0.3)])
        for method in ["auto", "gjk_epa", "sat", "incremental", "mpr"]:
            d = proxima.distance(a, None, b, pose_b, method=method)
            self.assertEqual(d.status, "ok", method)
            self.assertAlmostEqual(d.distance, 0.5, places=9)
        far = proxima.distance(a, None, b, pose_b, bound=0.1)
        self.assertTrue(far.bound_exceeded)
        self.assertGreater(far.distance, 0.1)

    def test_contacts_beyond_the_margin_flag_their_distance_as_a_bound(self):
        # Two 1 m boxes 1 m apart (a 0.5 m gap) and a contact margin of 5 cm:
        # no points, and the distance is the pair's or a flagged lower bound.
        a, b = proxima.Box(1, 1, 1), proxima.Box(1, 1, 1)
        pose_b = ([0.2, 0.1, 1.5], [math.cos(0.3), 0, 0, math.sin(0.3)])
        c = proxima.contacts(a, None, b, pose_b, margin=0.05)
        self.assertEqual(len(c), 0)
        self.assertGreater(c.distance, 0.05)
        self.assertLessEqual(c.distance, 0.5 + 1e-9)
        if not c.bound_exceeded:
            self.assertAlmostEqual(c.distance, 0.5, places=9)
        near = proxima.contacts(a, None, b, ([0.2, 0.1, 1.02], [1, 0, 0, 0]), margin=0.05)
        self.assertFalse(near.bound_exceeded)
        self.assertAlmostEqual(near.distance, 0.02, places=9)

    def test_witness_points_lie_on_both_boxes(self):
        # A 5 m box 1 m into a 2 m one: point_b is the middle of the small
        # box's face (the overlap of the two faces), for every exact method.
        big, small = proxima.Box(5, 5, 5), proxima.Box(2, 2, 2)
        for method in ["auto", "gjk_epa", "sat", "incremental"]:
            s = proxima.signed_distance(big, ([-1, 0, 0], [1, 0, 0, 0]), small, ([1.5, 0, 0], [1, 0, 0, 0]),
                                        method=method)
            self.assertEqual(s.status, "ok", method)
            self.assertAlmostEqual(s.distance, -1.0, places=9)
            np.testing.assert_allclose(s.normal, [-1, 0, 0], atol=1e-9)
            np.testing.assert_allclose(s.point_b, [0.5, 0, 0], atol=1e-9)
            np.testing.assert_allclose(s.point_a, [1.5, 0, 0], atol=1e-9)

    def test_touching_boxes_have_the_face_normal(self):
        a, b = proxima.Box(2, 3, 4), proxima.Box(2, 5, 6)
        for method in ["auto", "gjk_epa", "sat", "incremental", "mpr"]:
            for query in (proxima.distance, proxima.signed_distance):
                d = query(a, ([-1, 0, 0], [1, 0, 0, 0]), b, ([1, 0, 0], [1, 0, 0, 0]), method=method)
                self.assertEqual(d.status, "ok", method)
                self.assertAlmostEqual(d.distance, 0.0, places=12)
                np.testing.assert_allclose(d.normal, [-1, 0, 0], atol=1e-9)

    def test_mpr_depth_is_an_upper_bound(self):
        # The centre line runs diagonally: its depth exceeds the true 0.5.
        a, b = proxima.Box(2, 2, 2), proxima.Box(2, 2, 2)
        pose_b = ([1.5, 0.6, 0], [1, 0, 0, 0])
        exact = proxima.signed_distance(a, None, b, pose_b)
        bound = proxima.signed_distance(a, None, b, pose_b, method="mpr")
        self.assertEqual(exact.status, "ok")
        self.assertEqual(bound.status, "upper_bound")
        self.assertIn("upper_bound", proxima.STATUS_NAMES)
        self.assertAlmostEqual(exact.distance, -0.5, places=12)
        self.assertLess(bound.distance, exact.distance)
        np.testing.assert_allclose(bound.point_a - bound.point_b, bound.distance * bound.normal, atol=1e-12)


if __name__ == "__main__":
    unittest.main()
