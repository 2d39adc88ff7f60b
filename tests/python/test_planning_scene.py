# SPDX-License-Identifier: BSD-3-Clause
"""MoveIt planning scenes from Python: a YAML message and the same world as
.scene text give the Environment built object by object with the pose
written here (the Panda's distances to each agree), from a file and from a
string; objects with several shapes are named <id>/<k>; bad input raises
proxima.Error naming the field or line."""
import math
import os
import tempfile
import unittest

import proxima
from helpers import DATA

PANDA = os.path.join(DATA, "robots", "panda")
URDF = os.path.join(PANDA, "panda.urdf")
SRDF = os.path.join(PANDA, "panda.srdf")
READY = [0, -math.pi / 4, 0, -3 * math.pi / 4, 0, math.pi / 2, math.pi / 4]
S = math.sqrt(0.5)

YAML = """world:
  collision_objects:
    - id: shelf
      primitives: [{type: box, dimensions: [0.2, 0.6, 0.05]}]
      primitive_poses: [{position: [0.6, 0, 0.4], orientation: [0, 0, %r, %r]}]
    - id: post
      primitives:
        - {type: cylinder, dimensions: [0.5, 0.04]}
        - {type: sphere, dimensions: [0.06]}
      primitive_poses:
        - {position: [0, 0.5, 0.25], orientation: {x: 0, y: 0, z: 0, w: 1}}
        - {position: [0, 0.5, 0.6], orientation: [0, 0, 0, 1]}
""" % (S, S)

SCENE = """shelf and post
* shelf
0 0 0
0 0 0 1
1
box
0.2 0.6 0.05
0.6 0 0.4
0 0 %r %r
0 0 0 0
0
* post
0 0.5 0
0 0 0 1
2
cylinder
0.04 0.5
0 0 0.25
0 0 0 1
0 0 0 0
sphere
0.06
0 0 0.6
0 0 0 1
0 0 0 0
0
.
""" % (S, S)


def by_hand():
    env = proxima.Environment()
    env.add("shelf", proxima.Box(0.2, 0.6, 0.05), proxima.Pose([0.6, 0, 0.4], [S, 0, 0, S]))  # w first
    env.add("post/0", proxima.Cylinder(0.04, 0.5), proxima.Pose([0, 0.5, 0.25]), group="post")
    env.add("post/1", proxima.Sphere(0.06), proxima.Pose([0, 0.5, 0.6]), group="post")
    return env


class PlanningSceneTest(unittest.TestCase):
    def distances(self, env):
        scene = proxima.SceneChecker(URDF, SRDF, environment=env)
        return scene.distances(READY).environment_distance

    def test_both_formats_match_the_environment_built_by_hand(self):
        want = self.distances(by_hand())
        self.assertEqual(want.status, "ok")
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("s.yaml", YAML), ("s.scene", SCENE)):
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    f.write(text)
                fmt = "scene" if name.endswith(".scene") else "yaml"
                for env in (proxima.read_planning_scene(path), proxima.parse_planning_scene(text, format=fmt)):
                    self.assertEqual(env.names, ["shelf", "post/0", "post/1"])
                    got = self.distances(env)
                    self.assertEqual((got.link, got.other), (want.link, want.other))
                    # .scene text rounds nothing here, but its quaternion is written with repr's digits.
                    self.assertAlmostEqual(got.distance, want.distance, places=9)

    def test_shipped_scene_reads(self):
        env = proxima.read_planning_scene(os.path.join(PANDA, "scenes", "box_scene0001.yaml"))
        # The file's seven collision objects, one primitive each.
        self.assertEqual(sorted(env.names), ["Can1", "base", "side_back", "side_cap", "side_front", "side_left",
                                             "side_right"])

    def test_errors_name_the_field(self):
        with self.assertRaisesRegex(proxima.Error, r"<string>:4: world.collision_objects\[0\].primtives: unknown"):
            proxima.parse_planning_scene("world:\n  collision_objects:\n    - id: a\n      primtives: []\n")
        with self.assertRaisesRegex(proxima.Error, r"<string>:5: .*box dimensions: expected 3 numbers"):
            proxima.parse_planning_scene("s\n* a\n1\nbox\n1 1\n0 0 0\n0 0 0 1\n0 0 0 0\n.\n", format="scene")
        with self.assertRaisesRegex(ValueError, "format: expected 'yaml' or 'scene', not 'json'"):
            proxima.parse_planning_scene("{}", format="json")
        with self.assertRaisesRegex(proxima.Error, "extension '.txt'"):
            proxima.read_planning_scene("scene.txt")


if __name__ == "__main__":
    unittest.main()
