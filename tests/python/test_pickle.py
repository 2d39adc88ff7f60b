# SPDX-License-Identifier: BSD-3-Clause
"""Pickling and copying of the value types (Pose, every shape, Shape,
TriangleMesh, Bvh): the copy has the same parameters bit for bit and answers
queries identically, also in worker processes; a corrupted state raises
proxima.Error naming the class."""
import copy
import math
import multiprocessing
import pickle
import unittest

import numpy as np

import proxima
from helpers import CUBE_TRIANGLES, CUBE_VERTICES, random_rotation


def _parameters(x):
    """Everything that defines the value, as plain comparable data."""
    if isinstance(x, proxima.Pose):
        return ("Pose", x.p.tolist(), x.R.tolist())
    if isinstance(x, proxima.Shape):
        return ("Shape", x.type, _parameters(x.shape))
    if isinstance(x, proxima.TriangleMesh):
        return ("TriangleMesh", x.vertices.tolist(), x.triangles.tolist(), x.margin, x.name)
    if isinstance(x, proxima.Bvh):
        return ("Bvh", _parameters(x.mesh), x.volume, x.leaf_size, x.split, x.node_count, x.depth)
    names = {
        proxima.Sphere: ("radius",),
        proxima.Capsule: ("radius", "length"),
        proxima.Cylinder: ("radius", "length"),
        proxima.Cone: ("radius", "length"),
        proxima.Box: ("size", "half_extents"),
        proxima.Ellipsoid: ("radii",),
        proxima.Halfspace: ("normal", "offset"),
        proxima.ConvexPolytope: ("vertices", "faces"),
    }[type(x)]
    values = [getattr(x, n) for n in names] + [x.margin]
    return (type(x).__name__,) + tuple(v.tolist() if isinstance(v, np.ndarray) else v for v in values)


def _values():
    rng = np.random.default_rng(7)
    mesh = proxima.TriangleMesh(CUBE_VERTICES * [0.3, 0.5, 0.7], CUBE_TRIANGLES, margin=0.002, name="crate")
    return [
        proxima.Pose(p=rng.normal(size=3), q=rng.normal(size=4)),
        proxima.Pose.from_matrix(np.block([[random_rotation(rng), rng.normal(size=(3, 1))], [0, 0, 0, 1]])),
        proxima.Sphere(0.3, margin=0.01),
        proxima.Capsule(0.1 / 3, 0.7, margin=1e-3),
        proxima.Cylinder(0.2, 1 / 3),
        proxima.Cone(0.25, 0.9, margin=0.125),
        proxima.Box(0.1, 0.2, 0.3, margin=0.01),
        proxima.Box([1 / 3, 2 / 7, 5e-3]),
        proxima.Ellipsoid((0.1, 0.2, 1 / 3), margin=0.004),
        proxima.Halfspace([1, 2, 3], 0.25, margin=0.01),
        proxima.Halfspace(rng.normal(size=3), -1 / 3),
        proxima.ConvexPolytope(rng.normal(size=(40, 3)), margin=0.003),
        proxima.ConvexPolytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], margin=0.05),  # flat: margin needed
        proxima.ConvexPolytope([[0.5, 0.5, 0.5], [0, 0, 0], [1, 1, 1]], margin=0.02),  # a segment
        proxima.Shape(proxima.Capsule(0.2, 0.4)),
        mesh,
        proxima.Bvh(mesh),
        proxima.Bvh(mesh, volume="obb", leaf_size=1, split="median"),
    ]


def _pairs():
    """(a, pose_a, b, pose_b) covering every shape class and the mesh."""
    rng = np.random.default_rng(11)
    values = [v for v in _values() if not isinstance(v, (proxima.Pose, proxima.TriangleMesh))]
    pairs = []
    for i, a in enumerate(values):
        b = values[(i + 5) % len(values)]
        if isinstance(a, proxima.Halfspace) and isinstance(b, proxima.Halfspace):
            b = proxima.Sphere(0.5)
        pose_a = proxima.Pose(p=rng.normal(size=3), q=rng.normal(size=4))
        pose_b = proxima.Pose(p=rng.normal(size=3), q=rng.normal(size=4))
        pairs.append((a, pose_a, b, pose_b))
    return pairs


def _answer(a, pose_a, b, pose_b):
    r = proxima.distance(a, pose_a, b, pose_b)
    return (r.status, r.distance, r.normal.tolist(), r.point_a.tolist(), r.point_b.tolist(), r.triangle_a,
            r.triangle_b)


def _worker(pair):
    """Runs in a pool process: the pair arrives pickled, the query is asked
    there, and the operands go back pickled once more."""
    return _answer(*pair), pair


def _empty(cls):
    return cls.__new__(cls)


class _Forged:
    """Pickles as `cls` with an arbitrary state, as a corrupted or hostile
    pickle would: loading it creates an empty `cls` and hands it the state
    (what pickle does with the module's own pickles too)."""

    def __init__(self, cls, state):
        self.cls, self.state = cls, state

    def __reduce__(self):
        return (_empty, (self.cls,), self.state)


def _load_forged(cls, state):
    return pickle.loads(pickle.dumps(_Forged(cls, state)))


class PickleTest(unittest.TestCase):
    def test_round_trip_keeps_every_parameter_exactly(self):
        for value in _values():
            for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
                with self.subTest(value=repr(value), protocol=protocol):
                    copy_ = pickle.loads(pickle.dumps(value, protocol))
                    self.assertIs(type(copy_), type(value))
                    self.assertEqual(_parameters(copy_), _parameters(value))

    def test_copy_and_deepcopy(self):
        for value in _values():
            with self.subTest(value=repr(value)):
                self.assertEqual(_parameters(copy.copy(value)), _parameters(value))
                self.assertEqual(_parameters(copy.deepcopy(value)), _parameters(value))
        # Inside containers too, as a user's own objects hold them.
        scene = {"tool": proxima.Capsule(0.02, 0.1), "at": [proxima.Pose(p=[1, 2, 3])]}
        clone = copy.deepcopy(scene)
        self.assertEqual(_parameters(clone["tool"]), _parameters(scene["tool"]))
        self.assertEqual(_parameters(clone["at"][0]), _parameters(scene["at"][0]))

    def test_halfspace_normal_survives_exactly(self):
        # A normal normalized once is kept as it is when read back; one
        # normalized again would move by an ulp a third of the time.
        rng = np.random.default_rng(3)
        for _ in range(2000):
            h = proxima.Halfspace(rng.normal(size=3) * 10.0 ** rng.uniform(-6, 6), rng.normal())
            back = pickle.loads(pickle.dumps(h))
            self.assertEqual(back.normal.tolist(), h.normal.tolist())
            self.assertEqual(back.offset, h.offset)
        self.assertTrue(math.isclose(np.linalg.norm(h.normal), 1.0, rel_tol=1e-15))

    def test_polytope_comes_back_with_the_same_points_and_faces(self):
        rng = np.random.default_rng(5)
        clouds = [rng.normal(size=(n, 3)) for n in (4, 12, 200)]
        # Points on the faces and edges of a box, which the hull drops.
        grid = np.array([[x, y, z] for x in (0, 0.5, 1) for y in (0, 0.25, 1) for z in (0, 1)], dtype=float)
        clouds += [grid, rng.normal(size=(500, 3)) / np.linalg.norm(rng.normal(size=(500, 3)), axis=1)[:, None]]
        # Flat sets (the margin gives them volume) in a tilted plane, with
        # interior points and points on the edges, and a segment.
        frame = random_rotation(rng)
        disc = np.column_stack([rng.uniform(-1, 1, size=(60, 2)), np.zeros(60)])
        square = np.array([[x, y, 0] for x in (-1, 0, 1) for y in (-1, 0.5, 1)], dtype=float)
        clouds += [disc @ frame.T + 0.3, square @ frame.T, np.outer(rng.uniform(-1, 1, 9), [1, 2, 3])]
        for points in clouds:
            p = proxima.ConvexPolytope(points, margin=0.01)
            back = pickle.loads(pickle.dumps(p))
            self.assertEqual(back.vertices.tolist(), p.vertices.tolist())
            self.assertEqual(back.faces, p.faces)
            self.assertEqual(back.margin, p.margin)

    def test_bvh_is_rebuilt_with_its_options(self):
        mesh = proxima.read_mesh(_mug_or_cube(), scale=0.5, margin=0.001)
        for volume, leaf_size, split in (("rss", 4, "sah"), ("obb", 2, "median"), ("aabb", 8, "sah")):
            bvh = proxima.Bvh(mesh, volume=volume, leaf_size=leaf_size, split=split)
            back = pickle.loads(pickle.dumps(bvh))
            self.assertEqual((back.volume, back.leaf_size, back.split), (volume, leaf_size, split))
            self.assertEqual((back.node_count, back.depth), (bvh.node_count, bvh.depth))
            self.assertEqual(_parameters(back.mesh), _parameters(bvh.mesh))
            pose = proxima.Pose(p=[0.3, 0.2, 0.4], q=[0.9, 0.1, 0.3, 0.2])
            for other in (proxima.Sphere(0.05), bvh):
                self.assertEqual(_answer(back, None, other, pose), _answer(bvh, None, other, pose))

    def test_copies_answer_queries_identically(self):
        for a, pose_a, b, pose_b in _pairs():
            with self.subTest(a=repr(a), b=repr(b)):
                a2, pa2, b2, pb2 = pickle.loads(pickle.dumps((a, pose_a, b, pose_b)))
                self.assertEqual(_answer(a2, pa2, b2, pb2), _answer(a, pose_a, b, pose_b))

    def test_worker_processes_get_the_same_answers(self):
        pairs = _pairs()
        expected = [_answer(*pair) for pair in pairs]
        # spawn: fresh interpreters that import proxima themselves, so
        # nothing reaches them but the pickles.
        with multiprocessing.get_context("spawn").Pool(2) as pool:
            results = pool.map(_worker, pairs)
        self.assertEqual(len(results), len(pairs))
        for (answer, returned), pair, want in zip(results, pairs, expected):
            with self.subTest(a=repr(pair[0]), b=repr(pair[2])):
                self.assertEqual(answer, want)
                self.assertEqual([_parameters(x) for x in returned], [_parameters(x) for x in pair])
                self.assertEqual(answer[0], "ok")

    def test_corrupted_states_raise_errors_naming_the_class(self):
        nan = float("nan")
        mesh = proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES)
        bad = {
            proxima.Sphere: [(0.5,), (0.5, 0.0, 1.0), (nan, 0.0), (-1.0, 0.0), (0.5, -0.1), ("0.5", 0.0), [0.5, 0.0],
                             (0.5, None), (10 ** 400, 0.0)],
            proxima.Capsule: [(0.1, 0.2), (0.1, nan, 0.0), (0.1, 0.2, 0.0, 0.0)],
            proxima.Cylinder: [(nan, 0.2, 0.0), (0.1, 0.2, 0.0, 1)],
            proxima.Cone: [(0.1, -0.2, 0.0), ()],
            proxima.Box: [((1.0, 2.0), 0.0), ((1.0, 2.0, nan), 0.0), ((1.0, 2.0, 3.0),), (1.0, 2.0, 3.0, 0.0)],
            proxima.Ellipsoid: [((1.0, 2.0, 0.0), 0.0), ((1.0, 2.0, 3.0), nan), ("abc", 0.0)],
            proxima.Halfspace: [((0.0, 0.0, 0.0), 0.0, 0.0), ((0.0, 0.0, 1.0), nan, 0.0), ((0.0, 0.0, 1.0), 0.0)],
            proxima.ConvexPolytope: [(np.zeros((4, 3)), 0.0), (np.full((4, 3), nan), 0.1), (np.zeros((4, 2)), 0.1),
                                     ("points", 0.1), (np.eye(3),)],
            proxima.Shape: [(1.0,), (mesh,), ()],
            proxima.Pose: [((0.0, 0.0, 0.0),), ((0.0, 0.0, nan), tuple(map(tuple, np.eye(3)))),
                           ((0.0, 0.0, 0.0), tuple(map(tuple, 2 * np.eye(3)))),
                           ((0.0, 0.0, 0.0), tuple(map(tuple, np.diag([1.0, 1.0, -1.0])))),
                           ((0.0, 0.0, 0.0), ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)))],
            proxima.TriangleMesh: [(CUBE_VERTICES, CUBE_TRIANGLES + 8, 0.0, ""),
                                   (CUBE_VERTICES, CUBE_TRIANGLES * 0.5, 0.0, ""),
                                   (CUBE_VERTICES * nan, CUBE_TRIANGLES, 0.0, ""),
                                   (CUBE_VERTICES, CUBE_TRIANGLES, 0.0, 5),
                                   (CUBE_VERTICES, CUBE_TRIANGLES, 0.0)],
            proxima.Bvh: [(mesh, "rss", 0, "sah"), (mesh, "rss", 9, "sah"), (mesh, "ball", 4, "sah"),
                          (mesh, "rss", 4, "middle"), (mesh, "rss", 2.5, "sah"), (proxima.Sphere(1.0), "rss", 4, "sah"),
                          (mesh, "rss", 4)],
        }
        for cls, states in bad.items():
            for state in states:
                with self.subTest(cls=cls.__name__, state=repr(state)[:80]):
                    with self.assertRaises(proxima.Error) as caught:
                        _load_forged(cls, state)
                    self.assertIsInstance(caught.exception, ValueError)
                    self.assertTrue(str(caught.exception).startswith(cls.__name__ + ": cannot unpickle"),
                                    str(caught.exception))

    def test_forged_valid_state_loads(self):
        # The forging path itself works: a good state gives the object.
        s = _load_forged(proxima.Sphere, (0.25, 0.5))
        self.assertEqual((s.radius, s.margin), (0.25, 0.5))


def _mug_or_cube():
    """A real mesh when the MuJoCo samples are installed, else a cube file."""
    import os
    import tempfile
    mug = "/usr/share/mujoco/model/mug/mug.obj"
    if os.path.exists(mug):
        return mug
    from helpers import write_cube_obj
    path = os.path.join(tempfile.mkdtemp(), "cube.obj")
    write_cube_obj(path)
    return path


if __name__ == "__main__":
    unittest.main()
