# SPDX-License-Identifier: BSD-3-Clause
"""Throughput of proxima_ray on a local Ray cluster with 1 and 2 workers,
beside check_batch in this process: Panda validity labels beside a table
(configurations per second) and trajectory checks (trajectories per second).

    PYTHONPATH=build/python python3 bench/ray_batch.py [N]

Each row is the best of 3 runs after one warm-up; the workers are started
and sent the scene before the clock starts."""
import os
import sys

import numpy as np

import proxima
import proxima_ray
import timing

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
panda = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "robots", "panda")
urdf, srdf = os.path.join(panda, "panda.urdf"), os.path.join(panda, "panda.srdf")
env = proxima.Environment()
env.add("table", proxima.Box(0.6, 1.0, 0.1), ([0.5, 0.0, 0.3], [1, 0, 0, 0]))
local = proxima.SceneChecker(urdf, srdf, environment=env)
lim = local.joint_limits
rng = np.random.default_rng(0)
qs = rng.uniform(lim[:, 0], lim[:, 1], size=(N, 7))
paths = [rng.uniform(lim[:, 0], lim[:, 1], size=(4, 7)) * 0.3 for _ in range(max(N // 100, 20))]


def best(fn):
    return timing.best(fn, 3, warm_up=True)


def trajectories_here():
    for p in paths:
        for k in range(len(p) - 1):
            if local.check_motion(p[k], p[k + 1]).collide:
                break


print("| where | validity, configurations/s | trajectories/s (3 segments each) |")
print("|---|---:|---:|")
print("| this process, check_batch / check_motion | %.0f | %.0f |" % (
    N / best(lambda: local.check_batch(qs)), len(paths) / best(trajectories_here)))
for workers in (1, 2):
    with proxima_ray.Cluster(workers=workers, batch=2000) as cluster:
        cluster.add_scene("table", urdf, srdf, environment=env)
        assert (cluster.check("table", qs).collide == local.check_batch(qs).collide).all()
        v = best(lambda: cluster.check("table", qs))
        t = best(lambda: cluster.check_trajectories("table", paths))
        print("| Ray, %d worker%s | %.0f | %.0f |" % (workers, "s" if workers > 1 else "", N / v, len(paths) / t))
