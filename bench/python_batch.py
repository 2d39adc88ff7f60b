# SPDX-License-Identifier: BSD-3-Clause
"""Per-call against batched Python queries: the cost of calling proxima from
a Python loop, and what distance_batch / collide_batch save.

    PYTHONPATH=build/python python3 bench/python_batch.py [N]

Times the same N pose pairs per shape pair, best of 5 runs, in microseconds
per query: a Python loop over proxima.distance with 4x4 matrices, the same
with proxima.Pose objects made beforehand, and distance_batch on (N, 4, 4)
arrays; then collide, and the Panda's validity check per call against
check_batch; then the batches on 1 and 2 threads; then check_batch with and
without its sphere prefilter; then signed_distance along one pair's sequence
of poses with and without a PenetrationCache."""
import math
import os
import sys

import numpy as np

import proxima
from timing import best

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = np.random.default_rng(0)


def poses(n, spread):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    m = np.zeros((n, 4, 4))
    m[:, 0, :3] = np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], 1)
    m[:, 1, :3] = np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], 1)
    m[:, 2, :3] = np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)
    m[:, :3, 3] = rng.uniform(-spread, spread, size=(n, 3))
    m[:, 3, 3] = 1
    return m


def row(label, n, loop, batch):
    print("| %s | %.3f | %.3f | %.1fx |" % (label, 1e6 * loop / n, 1e6 * batch / n, loop / batch))


print("| workload | Python loop, us/query | batched, us/query | loop / batched |")
print("|---|---:|---:|---:|")
pairs = [("sphere-sphere", proxima.Sphere(0.3), proxima.Sphere(0.2)),
         ("box-capsule", proxima.Box(0.5, 0.4, 0.3), proxima.Capsule(0.1, 0.4)),
         ("polytope-polytope", proxima.ConvexPolytope(rng.uniform(-0.3, 0.3, (30, 3))),
          proxima.ConvexPolytope(rng.uniform(-0.3, 0.3, (30, 3))))]
for label, a, b in pairs:
    pa, pb = poses(N, 0.8), poses(N, 0.8)
    loop = best(lambda: [proxima.distance(a, pa[i], b, pb[i]).distance for i in range(N)])
    pose_a = [proxima.Pose.from_matrix(m) for m in pa]
    pose_b = [proxima.Pose.from_matrix(m) for m in pb]
    loop_pose = best(lambda: [proxima.distance(a, pose_a[i], b, pose_b[i]).distance for i in range(N)])
    batch = best(lambda: proxima.distance_batch(a, pa, b, pb).distance)
    row("distance %s, 4x4 per call" % label, N, loop, batch)
    row("distance %s, Pose per call" % label, N, loop_pose, batch)
    loop = best(lambda: [proxima.collide(a, pa[i], b, pb[i]).collide for i in range(N)])
    batch = best(lambda: proxima.collide_batch(a, pa, b, pb).collide)
    row("collide %s" % label, N, loop, batch)

panda = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "robots", "panda")
env = proxima.Environment()
env.add("table", proxima.Box(0.6, 1.0, 0.1), ([0.5, 0.0, 0.3], [1, 0, 0, 0]))
checker = proxima.SceneChecker(os.path.join(panda, "panda.urdf"), os.path.join(panda, "panda.srdf"), environment=env)
lim = checker.joint_limits
n = max(N // 10, 100)
qs = rng.uniform(lim[:, 0], lim[:, 1], size=(n, 7))
loop = best(lambda: [checker.tolerance(q, 0.0).within for q in qs], 3)
batch = best(lambda: checker.check_batch(qs).collide, 3)
row("Panda validity beside a table (tolerance(q, 0) per call; check_batch)", n, loop, batch)

# The same batches on 1 and 2 threads (threads=), and what the rows of each
# cost: the identical answers are checked by tests/python/test_batch.py.
print()
print("| batch | 1 thread, us/row | 2 threads, us/row | speed-up |")
print("|---|---:|---:|---:|")
cube_v = np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.2, 0.2) for z in (-0.2, 0.2)])
cube_t = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                   [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]])
cube = proxima.Bvh(proxima.TriangleMesh(cube_v, cube_t))
scaling = [("distance_batch box-capsule", lambda t, a=pairs[1][1], b=pairs[1][2], pa=poses(N, 0.8),
            pb=poses(N, 0.8): proxima.distance_batch(a, pa, b, pb, threads=t), N),
           ("distance_batch cube mesh-mesh", lambda t, pa=poses(N, 0.8), pb=poses(N, 0.8):
            proxima.distance_batch(cube, pa, cube, pb, threads=t), N),
           ("Panda check_batch beside a table", lambda t: checker.check_batch(qs, threads=t), n)]
for label, fn, rows in scaling:
    one = best(lambda: fn(1), 3)
    two = best(lambda: fn(2), 3)
    print("| %s | %.3f | %.3f | %.2fx |" % (label, 1e6 * one / rows, 1e6 * two / rows, one / two))

# check_batch with and without its sphere prefilter (rows the robot's
# bounding spheres prove free skip the exact check; the answers are the same,
# which is asserted here), on the joint vectors above and on the free ones
# among them alone, and the share of each batch that is free.
print()
print("| Panda check_batch beside a table | rows | free | prefilter off, us/row | prefilter on, us/row | speed-up |")
print("|---|---:|---:|---:|---:|---:|")
free = qs[~checker.check_batch(qs).collide]
for label, rows in [("uniform within limits", qs), ("free rows only", free)]:
    off = checker.check_batch(rows)
    on = checker.check_batch(rows, prefilter=True)
    assert (off.collide == on.collide).all() and (off.status_code == on.status_code).all()
    t_off = best(lambda: checker.check_batch(rows), 3)
    t_on = best(lambda: checker.check_batch(rows, prefilter=True), 3)
    print("| %s | %d | %.0f%% | %.3f | %.3f | %.1fx |" % (label, len(rows), 100.0 * (~off.collide).mean(),
                                                      1e6 * t_off / len(rows), 1e6 * t_on / len(rows), t_off / t_on))

# signed_distance along a sequence of poses of one pair (a polytope, the
# hull of 200 points on a sphere of radius 0.5, sliding and turning on a
# 1 x 0.6 x 0.4 box, its sphere 25 to 35 mm deep), with and without a
# PenetrationCache:
# per call from a Python loop and batched. The answers agree within 1e-9 m
# (asserted here; tests/python/test_penetration_cache.py checks them against
# the separating-axis theorem).
print()
print("| polytope(200)-box sequence, %d steps | without cache, us/step | with cache, us/step | speed-up |" % N)
print("|---|---:|---:|---:|")
sphere_points = np.random.default_rng(2027).normal(size=(200, 3))
hull = proxima.ConvexPolytope(0.5 * sphere_points / np.linalg.norm(sphere_points, axis=1)[:, None])
slab = proxima.Box(1.0, 0.6, 0.4)
sequence = np.zeros((N, 4, 4))
for k in range(N):
    s = k / max(N - 1, 1)
    yaw, tilt = 0.8 * s, 0.2 * math.sin(5.0 * s)
    Rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    Rx = np.array([[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]])
    sequence[k, :3, :3] = Rz @ Rx
    sequence[k, :3, 3] = [0.2 * math.sin(2.0 * s), 0.1 * s, 0.2 + 0.5 - 0.03 - 0.005 * math.sin(7.0 * s)]
    sequence[k, 3, 3] = 1
# The hull's lowest point is a few millimetres above the sphere's, 0.5
# below its centre: the pair overlaps at every step (asserted).
plain = proxima.signed_distance_batch(hull, sequence, slab, np.eye(4))
cached = proxima.signed_distance_batch(hull, sequence, slab, np.eye(4), cache=proxima.PenetrationCache())
assert (plain.distance < 0).all() and np.abs(plain.distance - cached.distance).max() <= 1e-9
loop_plain = best(lambda: [proxima.signed_distance(hull, m, slab, None).distance for m in sequence], 3)


def loop_with_cache():
    cache = proxima.PenetrationCache()
    return [proxima.signed_distance(hull, m, slab, None, cache=cache).distance for m in sequence]


loop_cached = best(loop_with_cache, 3)
batch_plain = best(lambda: proxima.signed_distance_batch(hull, sequence, slab, np.eye(4)), 3)
batch_cached = best(lambda: proxima.signed_distance_batch(hull, sequence, slab, np.eye(4),
                                                          cache=proxima.PenetrationCache()), 3)
print("| Python loop, 4x4 per call | %.3f | %.3f | %.2fx |" % (1e6 * loop_plain / N, 1e6 * loop_cached / N,
                                                                loop_plain / loop_cached))
print("| signed_distance_batch | %.3f | %.3f | %.2fx |" % (1e6 * batch_plain / N, 1e6 * batch_cached / N,
                                                           batch_plain / batch_cached))
