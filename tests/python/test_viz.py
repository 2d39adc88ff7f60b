# SPDX-License-Identifier: BSD-3-Clause
"""proxima.viz: the replay page written from Python. The page's data is read
back from the written HTML and compared with the numbers given and with
closed forms: a ball of radius 0.5 over the unit-thick box whose top is z =
0.5 has its witness segment from (0, 0, h - 0.5) to (0, 0, 0.5); a dropped
ball follows z = z0 - g t (t + dt) / 2 (the symplectic step) until it lands;
a Recorder keeps frames 0, k, 2k, ... and the last with k = ceil((n - 1) /
(max_frames - 1)). Every strict argument is refused with proxima.Error naming
it. to_meshcat is checked with a recording stand-in for meshcat (always) and
with a real meshcat Visualizer on loopback when meshcat is installed; one
Python-written page is loaded in headless Chromium with the browser test's
helper when chromium is installed."""
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

import numpy as np

import proxima
import proxima.viz
from helpers import CUBE_TRIANGLES, CUBE_VERTICES, matrix, rotation

G = 9.81
HERE = os.path.dirname(os.path.abspath(__file__))


def page_data(path):
    """The data object of a written page, as the page's script reads it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tag = '<script type="application/json" id="proxima-data">'
    start = text.index(tag) + len(tag)
    return json.loads(text[start:text.index("</script>", start)])


def written(page, **kw):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "page.html")
        page.write(path, **kw)
        return page_data(path)


def ball_over_box(title="ball over box"):
    """A moving ball (radius 0.5) and a static box 2 x 2 x 1 centred at the origin (top at z = 0.5)."""
    page = proxima.viz.Page(title=title)
    page.add_body("ball", proxima.Sphere(0.5), proxima.Pose(p=[0, 0, 2]))
    page.add_body("floor", proxima.Box(2.0, 2.0, 1.0), None, static=True)
    return page


class PageTest(unittest.TestCase):
    def test_bodies_frames_contacts_segments_and_timelines_are_written_as_given(self):
        page = ball_over_box()
        heights = [2.0, 1.5, 0.99]
        for k, h in enumerate(heights):
            ball = proxima.Pose(p=[0, 0, h])
            d = proxima.signed_distance(proxima.Sphere(0.5), ball, proxima.Box(2.0, 2.0, 1.0), None)
            c = proxima.contacts(proxima.Sphere(0.5), ball, proxima.Box(2.0, 2.0, 1.0), None)
            page.add_frame(0.1 * k, {"ball": ball}, c, d, label="h = %g" % h)
        page.add_timeline("height", "m", heights)
        self.assertEqual(page.frame_count, 3)
        data = written(page)
        self.assertEqual(data["format"], "proxima-replay")
        self.assertEqual(data["title"], "ball over box")
        self.assertEqual(data["shapes"], [{"kind": "sphere", "radius": 0.5}, {"kind": "box", "size": [2, 2, 1]}])
        self.assertEqual([b["name"] for b in data["bodies"]], ["ball", "floor"])
        self.assertEqual([b["static"] for b in data["bodies"]], [False, True])
        self.assertEqual(data["bodies"][0]["pose"], [0, 0, 2, 1, 0, 0, 0])
        self.assertEqual(data["bodies"][1]["pose"], [0, 0, 0, 1, 0, 0, 0])
        self.assertEqual(len(data["frames"]), 3)
        for k, (frame, h) in enumerate(zip(data["frames"], heights)):
            self.assertEqual(frame["step"], k)
            self.assertAlmostEqual(frame["time"], 0.1 * k, places=12)
            self.assertEqual(frame["label"], "h = %g" % h)
            self.assertEqual(len(frame["poses"]), 1)  # the static floor has none
            np.testing.assert_allclose(frame["poses"][0], [0, 0, h, 1, 0, 0, 0], atol=1e-6)
            # The witness segment of a ball over a box's top face: straight down.
            self.assertEqual(len(frame["segments"]), 1)
            np.testing.assert_allclose(frame["segments"][0], [0, 0, h - 0.5, 0, 0, 0.5], atol=1e-6)
        self.assertEqual(data["frames"][0]["contacts"], [])
        self.assertEqual(data["frames"][1]["contacts"], [])
        # Overlapping by 0.01: the contact midway between the surfaces, normal +z (box to ball).
        contacts = data["frames"][2]["contacts"]
        self.assertEqual(len(contacts), 1)
        np.testing.assert_allclose(contacts[0][:3], [0, 0, 0.495], atol=1e-6)
        np.testing.assert_allclose(contacts[0][3:6], [0, 0, 1], atol=1e-4)
        self.assertAlmostEqual(contacts[0][6], 0.01, delta=1e-6)
        self.assertEqual(data["timelines"], [{"name": "height", "unit": "m", "values": heights}])

    def test_to_json_is_the_written_data(self):
        page = ball_over_box()
        page.add_frame(0.0)
        self.assertEqual(json.loads(page.to_json()), written(page))

    def test_rows_and_dicts_as_contacts_and_point_pairs_as_segments(self):
        page = ball_over_box()
        page.add_frame(0.0, [proxima.Pose(p=[0.25, -0.5, 1.0])],
                       contacts=[[0.1, 0.2, 0.3, 0, 0, 1, 0.004],
                                 {"point": [1, 2, 3], "normal": [0, 1, 0], "depth": -0.002, "a": "x", "b": "y"}],
                       segments=[[0, 0, 1, 0, 0, 2], np.array([[1, 1, 1], [2, 2, 2]])], step=7)
        frame = written(page)["frames"][0]
        self.assertEqual(frame["step"], 7)
        np.testing.assert_allclose(frame["poses"][0], [0.25, -0.5, 1.0, 1, 0, 0, 0], atol=1e-6)
        np.testing.assert_allclose(frame["contacts"], [[0.1, 0.2, 0.3, 0, 0, 1, 0.004], [1, 2, 3, 0, 1, 0, -0.002]],
                                   atol=1e-6)
        np.testing.assert_allclose(frame["segments"], [[0, 0, 1, 0, 0, 2], [1, 1, 1, 2, 2, 2]], atol=1e-6)

    def test_a_rotated_pose_is_written_as_its_quaternion(self):
        page = ball_over_box()
        angle = 0.7
        page.add_frame(0.0, {"ball": matrix(rotation([0, 0, 1], angle), [1, 2, 3])})
        pose = written(page)["frames"][0]["poses"][0]
        np.testing.assert_allclose(pose, [1, 2, 3, math.cos(angle / 2), 0, 0, math.sin(angle / 2)], atol=1e-6)

    def test_a_body_left_out_keeps_its_pose_and_none_hides_it(self):
        page = proxima.viz.Page()
        page.add_body("a", proxima.Sphere(0.1), proxima.Pose(p=[1, 0, 0]))
        page.add_body("b", proxima.Sphere(0.1), proxima.Pose(p=[2, 0, 0]))
        page.add_frame(0.0, {"b": proxima.Pose(p=[2, 1, 0])})
        page.add_frame(0.5, {"a": None})
        page.add_frame(1.0)
        frames = written(page)["frames"]
        np.testing.assert_allclose(frames[0]["poses"][0], [1, 0, 0, 1, 0, 0, 0])
        np.testing.assert_allclose(frames[0]["poses"][1], [2, 1, 0, 1, 0, 0, 0])
        self.assertIsNone(frames[1]["poses"][0])
        np.testing.assert_allclose(frames[1]["poses"][1], [2, 1, 0, 1, 0, 0, 0])
        self.assertIsNone(frames[2]["poses"][0])
        self.assertEqual([f["step"] for f in frames], [0, 1, 2])

    def test_meshes_are_written_once_with_their_vertices_and_triangles(self):
        mesh = proxima.TriangleMesh(CUBE_VERTICES, CUBE_TRIANGLES)
        page = proxima.viz.Page()
        self.assertEqual(page.add_body("mesh", mesh), 0)
        self.assertEqual(page.add_body("bvh", proxima.Bvh(mesh)), 1)
        page.add_body("hull", proxima.ConvexPolytope(CUBE_VERTICES), static=True)
        data = json.loads(page.to_json())
        self.assertEqual(len(data["shapes"]), 2)  # the mesh and its Bvh are one shape
        self.assertEqual([b["shape"] for b in data["bodies"]], [0, 0, 1])
        mesh_json = data["shapes"][0]
        self.assertEqual(mesh_json["kind"], "mesh")
        np.testing.assert_allclose(np.reshape(mesh_json["vertices"], (-1, 3)), CUBE_VERTICES)
        np.testing.assert_array_equal(np.reshape(mesh_json["triangles"], (-1, 3)), CUBE_TRIANGLES)
        hull = data["shapes"][1]
        self.assertEqual(hull["kind"], "convex")
        self.assertEqual(len(hull["faces"]), 6)
        vertices = np.reshape(hull["vertices"], (-1, 3))
        self.assertEqual(sorted(map(tuple, vertices)), sorted(map(tuple, CUBE_VERTICES)))

    def test_frame_shapes_replace_the_bodies_shapes(self):
        page = ball_over_box()
        page.add_frame(0.0, shapes=[proxima.Capsule(0.2, 1.0), proxima.Box(2.0, 2.0, 1.0)])
        data = json.loads(page.to_json())
        self.assertEqual(data["shapes"][data["frames"][0]["shapes"][0]], {"kind": "capsule", "radius": 0.2,
                                                                         "length": 1})
        self.assertEqual(data["frames"][0]["shapes"][1], 1)

    def test_title_is_escaped_in_the_page(self):
        page = ball_over_box(title="a <b> & c")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "page.html")
            page.write(path)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("<title>a &lt;b&gt; &amp; c</title>", text)
            self.assertEqual(page_data(path)["title"], "a <b> & c")


class QueryTest(unittest.TestCase):
    def test_query_frames_hold_the_shapes_poses_witnesses_and_contacts(self):
        ball, box = proxima.Sphere(0.5), proxima.Box(2.0, 2.0, 1.0)
        page = proxima.viz.Page(title="queries")
        up = proxima.Pose(p=[0, 0, 3])
        d = proxima.distance(ball, up, box, None)
        self.assertEqual(page.add_query(ball, up, box, None, d, label="apart"), 0)
        down = proxima.Pose(p=[0, 0, 0.98])
        c = proxima.contacts(ball, down, box, None)
        self.assertEqual(page.add_query(ball, down, box, None, c), 1)
        capsule = proxima.Capsule(0.25, 1.0)
        aside = ([3, 0, 0], [1, 0, 0, 0])
        page.add_query(capsule, aside, box, None, proxima.collide(capsule, aside, box, None))
        data = json.loads(page.to_json())
        self.assertEqual(page.body_names, ["a", "b"])
        frames = data["frames"]
        self.assertEqual(len(frames), 3)
        self.assertEqual(frames[0]["label"], "apart: distance 2 m")
        np.testing.assert_allclose(frames[0]["segments"], [[0, 0, 2.5, 0, 0, 0.5]], atol=1e-6)
        np.testing.assert_allclose(frames[0]["poses"], [[0, 0, 3, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]], atol=1e-6)
        self.assertEqual(data["shapes"][frames[0]["shapes"][0]], {"kind": "sphere", "radius": 0.5})
        self.assertEqual(data["shapes"][frames[0]["shapes"][1]], {"kind": "box", "size": [2, 2, 1]})
        self.assertTrue(frames[1]["label"].startswith("contacts, 1 points, distance -0.02"), frames[1]["label"])
        np.testing.assert_allclose(frames[1]["contacts"], [[0, 0, 0.49, 0, 0, 1, 0.02]], atol=1e-6)
        self.assertEqual(frames[2]["label"], "collide, apart")
        self.assertEqual(data["shapes"][frames[2]["shapes"][0]], {"kind": "capsule", "radius": 0.25, "length": 1})

    def test_a_page_with_other_bodies_refuses_queries(self):
        page = ball_over_box()
        with self.assertRaisesRegex(proxima.Error, "add_query: the page's bodies"):
            page.add_query(proxima.Sphere(1.0), None, proxima.Sphere(1.0), None)
        empty = proxima.viz.Page()
        with self.assertRaisesRegex(TypeError, "result: expected"):
            empty.add_query(proxima.Sphere(1.0), None, proxima.Sphere(1.0), None, "far")
        with self.assertRaisesRegex(proxima.Error, "pose_b: non-finite"):
            empty.add_query(proxima.Sphere(1.0), None, proxima.Sphere(1.0), ([math.nan, 0, 0], [1, 0, 0, 0]))
        # A query that was not answered has nothing to draw: refused, and the page keeps no bodies.
        bad = proxima.distance(proxima.Sphere(1.0), ([math.nan, 0, 0], [1, 0, 0, 0]), proxima.Sphere(1.0), None)
        self.assertEqual(bad.status, "invalid_input")
        with self.assertRaisesRegex(proxima.Error, "result: status 'invalid_input' has nothing to draw"):
            empty.add_query(proxima.Sphere(1.0), None, proxima.Sphere(1.0), None, bad)
        self.assertEqual(empty.body_names, [])
        self.assertEqual(empty.frame_count, 0)


def drop_world():
    world = proxima.World(dt=1e-3)
    world.add_body("floor", proxima.Box(2.0, 2.0, 1.0), None, static=True)
    world.add_body("ball", proxima.Sphere(0.1), proxima.Pose(p=[0, 0, 0.7]), density=1000.0)
    return world


class RecorderTest(unittest.TestCase):
    def test_frames_follow_the_world_and_are_sampled_as_the_command_does(self):
        world = drop_world()
        rec = proxima.viz.Recorder(world, title="drop")
        heights = [world.pose("ball").p[2]]
        for _ in range(1000):
            world.step()
            rec.capture()
            heights.append(world.pose("ball").p[2])
        self.assertEqual(rec.frame_count, 1001)
        data = written(rec, max_frames=600)
        self.assertEqual(data["title"], "drop")
        self.assertEqual([b["name"] for b in data["bodies"]], ["floor", "ball"])
        self.assertEqual([b["static"] for b in data["bodies"]], [True, False])
        # k = ceil(1000 / 599) = 2: frames 0, 2, ..., 1000.
        steps = [f["step"] for f in data["frames"]]
        self.assertEqual(steps, list(range(0, 1001, 2)))
        for f in data["frames"]:
            self.assertAlmostEqual(f["time"], f["step"] * 1e-3, places=9)
            self.assertAlmostEqual(f["poses"][0][2], heights[f["step"]], delta=1e-6)
        # Free fall until the ball (radius 0.1) reaches the floor's top (z = 0.5) at t = sqrt(0.2 / g).
        falling = [f for f in data["frames"] if f["time"] < math.sqrt(2 * 0.1 / G) - 0.01]
        self.assertGreater(len(falling), 50)
        for f in falling:
            t = f["time"]
            self.assertAlmostEqual(f["poses"][0][2], 0.7 - G * t * (t + 1e-3) / 2, delta=2e-6)
            self.assertEqual(f["contacts"], [])
        # At rest on the floor: the world's last contact, under the ball on the floor's top; its normal
        # points from body b (the ball) to body a (the floor, added first).
        last = data["frames"][-1]
        (contact,) = world.contacts()
        self.assertEqual((contact["a"], contact["b"]), ("floor", "ball"))
        self.assertEqual(len(last["contacts"]), 1)
        np.testing.assert_allclose(last["contacts"][0][:3], contact["point"], atol=1e-6)
        np.testing.assert_allclose(last["contacts"][0][3:6], contact["normal"], atol=1e-4)
        self.assertAlmostEqual(last["contacts"][0][6], contact["depth"], delta=1e-7)
        np.testing.assert_allclose(last["contacts"][0][:3], [0, 0, 0.5], atol=2e-3)
        np.testing.assert_allclose(last["contacts"][0][3:6], [0, 0, -1], atol=1e-3)
        names = [t["name"] for t in data["timelines"]]
        self.assertEqual(names, ["kinetic energy", "potential energy", "contacts"])
        for t in data["timelines"]:
            self.assertEqual(len(t["values"]), len(data["frames"]))
        self.assertEqual(data["timelines"][2]["values"][0], 0)
        self.assertEqual(data["timelines"][2]["values"][-1], 1)
        # Below the budget every capture is kept.
        self.assertEqual(len(json.loads(rec.to_json(max_frames=2000))["frames"]), 1001)
        self.assertEqual([f["step"] for f in json.loads(rec.to_json(max_frames=2))["frames"]], [0, 1000])

    @unittest.skipUnless(os.environ.get("PROXIMA_CLI"), "PROXIMA_CLI (the proxima command) is not set")
    def test_the_page_is_the_one_proxima_sim_html_writes(self):
        import subprocess
        scene = os.path.join(HERE, "..", "..", "examples", "cube_stack.json")
        world = proxima.World.from_file(scene)
        rec = proxima.viz.Recorder(world)
        for _ in range(700):  # 0.7 s at the scene's 1 ms: more steps than frames, so both sample
            world.step()
            rec.capture()
        with tempfile.TemporaryDirectory() as tmp:
            cli, python = os.path.join(tmp, "cli.html"), os.path.join(tmp, "python.html")
            subprocess.run([os.environ["PROXIMA_CLI"], "sim", scene, "--time", "0.7", "--quiet", "--html", cli],
                           check=True, capture_output=True, timeout=600)
            rec.write(python)
            self.assertEqual(len(page_data(python)["frames"]), 351)  # k = ceil(700 / 599) = 2
            with open(cli, "rb") as a, open(python, "rb") as b:
                self.assertEqual(a.read(), b.read())

    def test_recorder_arguments_are_checked(self):
        world = drop_world()
        rec = proxima.viz.Recorder(world)
        with self.assertRaisesRegex(proxima.Error, "max_frames: must be at least 2"):
            rec.to_json(max_frames=1)
        with self.assertRaisesRegex(proxima.Error, "max_contacts: must be >= 0"):
            proxima.viz.Recorder(world, max_contacts=-1)
        with self.assertRaisesRegex(proxima.Error, "world: has no body"):
            proxima.viz.Recorder(proxima.World())
        with self.assertRaisesRegex(TypeError, "world: expected a proxima.World"):
            proxima.viz.Recorder("world")
        world.add_body("late", proxima.Sphere(0.1), proxima.Pose(p=[1, 0, 1]), density=1.0)
        with self.assertRaisesRegex(proxima.Error, "capture: the world has 3 bodies, the recorder was made with 2"):
            rec.capture()
        with self.assertRaisesRegex(proxima.Error, "^path: needs a file name"):
            proxima.viz.Recorder(world).write("")


sys.path.insert(0, os.path.join(HERE, "..", "apps"))
from viewer_test import SLIDER_URDF  # noqa: E402 (the browser test's robot: a ball on a slide over a box base)
sys.path.pop(0)


def slider_with_wall():
    env = proxima.Environment()
    env.add("wall", proxima.Box(0.1, 1.0, 1.0), proxima.Pose(p=[0.6, 0, 0.5]))
    return proxima.SceneChecker.from_xml(SLIDER_URDF, environment=env)


class RobotPageTest(unittest.TestCase):
    def test_links_are_coloured_by_their_closed_form_clearance(self):
        page = proxima.viz.RobotPage(slider_with_wall(), title="slider", near=0.01, far=0.2)
        xs = [0.0, 0.2, 0.44]
        for k, x in enumerate(xs):
            clearances = page.add([x], label="x = %g" % x, time=0.5 * k)
            # The ball (radius 0.1, centre (x, 0, 0.5)): the wall's face at x = 0.55, or the base's top at
            # z = 0.1, whichever is nearer.
            self.assertAlmostEqual(clearances["ball"], min(0.45 - x, 0.3), delta=1e-9)
        self.assertEqual(page.frame_count, 3)
        data = written(page)
        self.assertEqual(data["title"], "slider")
        self.assertEqual(data["links"], ["base", "ball"])
        self.assertEqual(data["colour_scale"], {"quantity": "clearance", "unit": "m", "near": 0.01, "far": 0.2})
        ball = [f["clearances"][1] for f in data["frames"]]
        np.testing.assert_allclose(ball, [0.3, 0.25, 0.01], atol=1e-6)
        self.assertEqual([f["time"] for f in data["frames"]], [0.0, 0.5, 1.0])
        self.assertEqual(data["frames"][2]["label"], "x = 0.44, closest ball to wall 10.0 mm")
        # The witness segment from the ball's surface to the wall's face.
        np.testing.assert_allclose(data["frames"][2]["segments"], [[0.54, 0, 0.5, 0.55, 0, 0.5]], atol=1e-6)
        bodies = {b["name"]: b for b in data["bodies"]}
        self.assertTrue(bodies["wall"]["static"] and bodies["base"]["static"])
        self.assertFalse(bodies["ball"]["static"])

    def test_robot_page_arguments_are_checked(self):
        page = proxima.viz.RobotPage(slider_with_wall())
        page.add([0.0], time=1.0)
        with self.assertRaisesRegex(proxima.Error, "q: expected 1"):
            page.add([0.0, 0.0])
        with self.assertRaisesRegex(proxima.Error, r"q\[0\]: must be finite"):
            page.add([math.nan])
        with self.assertRaisesRegex(proxima.Error, "time: 0.5 is before the frame before's 1.0"):
            page.add([0.0], time=0.5)
        with self.assertRaisesRegex(proxima.Error, "base: non-finite"):
            page.add([0.0], ([math.nan, 0, 0], [1, 0, 0, 0]))
        with self.assertRaisesRegex(proxima.Error, "near, far: the clearance scale"):
            proxima.viz.RobotPage(slider_with_wall(), near=0.2, far=0.1)
        self.assertEqual(page.frame_count, 1)


class RefusalTest(unittest.TestCase):
    def refused(self, pattern, call, error=proxima.Error):
        with self.assertRaisesRegex(error, pattern):
            call()

    def test_add_body_arguments(self):
        page = ball_over_box()
        self.refused("add_body: name: a body named 'ball' exists", lambda: page.add_body("ball", proxima.Sphere(1)))
        self.refused("add_body: name: must not be empty", lambda: page.add_body("", proxima.Sphere(1)))
        self.refused("pose: non-finite",
                     lambda: page.add_body("x", proxima.Sphere(1), ([math.nan, 0, 0], [1, 0, 0, 0])))
        self.refused("pose: the last row", lambda: page.add_body("x", proxima.Sphere(1), np.ones((4, 4))))
        self.refused("shape: expected a proxima shape", lambda: page.add_body("x", "sphere"), TypeError)
        page.add_frame(0.0)
        self.refused("add_body: 'late' comes after a frame", lambda: page.add_body("late", proxima.Sphere(1)))
        # Nothing refused was added: the ball's and the floor's shapes only.
        self.assertEqual(page.body_names, ["ball", "floor"])
        self.assertEqual(len(json.loads(page.to_json())["shapes"]), 2)

    def test_add_frame_arguments(self):
        self.refused("add_frame: the page has no body", lambda: proxima.viz.Page().add_frame(0.0))
        page = ball_over_box()
        page.add_frame(1.0, step=5)
        ball = proxima.Pose(p=[0, 0, 1])
        self.refused("add_frame: time: must be finite", lambda: page.add_frame(math.nan))
        self.refused("add_frame: time: 0.5 is before the frame before's 1", lambda: page.add_frame(0.5))
        self.refused("add_frame: step: 5 is not after the frame before's 5", lambda: page.add_frame(2.0, step=5))
        self.refused("add_frame: step: must be >= 0", lambda: page.add_frame(2.0, step=-1))
        self.refused("poses: 2 entries for 1 moving bodies", lambda: page.add_frame(2.0, [ball, ball]))
        self.refused("poses: no body named 'bal'", lambda: page.add_frame(2.0, {"bal": ball}))
        self.refused("poses: body 'floor' is static", lambda: page.add_frame(2.0, {"floor": ball}))
        self.refused(r"poses\['ball'\]: non-finite",
                     lambda: page.add_frame(2.0, {"ball": ([0, 0, math.inf], [1, 0, 0, 0])}))
        self.refused(r"poses\[0\].q: expected 4 numbers", lambda: page.add_frame(2.0, [([0, 0, 1], [1, 0, 0])]))
        self.refused("poses: expected a dict", lambda: page.add_frame(2.0, 3), TypeError)
        self.refused(r"contacts\[0\]: expected a dict or 7 numbers", lambda: page.add_frame(2.0, contacts=[[0, 0, 0]]))
        self.refused(r"contacts\[0\].point: must be finite",
                     lambda: page.add_frame(2.0, contacts=[[0, math.nan, 0, 0, 0, 1, 0]]))
        self.refused(r"contacts\[0\].depth: must be finite",
                     lambda: page.add_frame(2.0, contacts=[[0, 0, 0, 0, 0, 1, math.inf]]))
        self.refused(r"contacts\[1\].normal: must be a unit vector",
                     lambda: page.add_frame(2.0, contacts=[[0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 2, 0]]))
        self.refused(r"contacts\[0\]: unknown key 'depht'",
                     lambda: page.add_frame(2.0, contacts=[{"point": [0, 0, 0], "normal": [0, 0, 1], "depht": 0}]))
        self.refused(r"contacts\[0\]: missing 'depth'",
                     lambda: page.add_frame(2.0, contacts=[{"point": [0, 0, 0], "normal": [0, 0, 1]}]))
        self.refused("contacts: expected a ContactResult", lambda: page.add_frame(2.0, contacts=5), TypeError)
        self.refused(r"segments\[0\]: expected 6 numbers or two points",
                     lambda: page.add_frame(2.0, segments=[[0, 0, 0, 1, 1]]))
        self.refused(r"segments\[0\] \(second point\): must be finite",
                     lambda: page.add_frame(2.0, segments=[[0, 0, 0, 1, 1, math.nan]]))
        self.refused("shapes: 1 entries for 2 bodies", lambda: page.add_frame(2.0, shapes=[proxima.Sphere(1)]))
        self.refused("add_frame: time: must be finite",
                     lambda: page.add_frame(math.nan, shapes=[proxima.Sphere(3), proxima.Sphere(4)]))
        # Nothing refused was added: no frame, no shape.
        self.assertEqual(page.frame_count, 1)
        self.assertEqual(len(json.loads(page.to_json())["shapes"]), 2)

    def test_add_timeline_arguments(self):
        page = ball_over_box()
        page.add_frame(0.0)
        page.add_frame(1.0)
        page.add_timeline("speed", "m/s", [1.0, 2.0])
        self.refused("add_timeline: name: a timeline named 'speed' exists",
                     lambda: page.add_timeline("speed", "m/s", [1.0, 2.0]))
        self.refused("add_timeline: name: must not be empty", lambda: page.add_timeline("", "", [1.0, 2.0]))
        self.refused(r"add_timeline 'v': values\[1\]: must be finite",
                     lambda: page.add_timeline("v", "", [1.0, math.nan]))
        self.refused("add_timeline: values: expected one number per frame",
                     lambda: page.add_timeline("v", "", [[1.0, 2.0]]))
        self.refused(r"add_timeline 'level': values\[1\]: 2 is not an index into labels \(2 labels\)",
                     lambda: page.add_timeline("level", "", [0, 2], labels=["clear", "stop"]))
        page.add_timeline("short", "s", [1.0])
        self.refused("timeline 'short': 1 values for 2 frames", page.to_json)

    def test_write_arguments(self):
        page = ball_over_box()
        self.refused("^path: needs a file name", lambda: page.write(""))
        self.refused("^path: .*cannot write the page",
                     lambda: page.write(os.path.join(HERE, "no", "such", "dir.html")))
        self.refused("page: has no body", proxima.viz.Page().to_json)


class FakeMeshcat:
    """A stand-in for the meshcat module and a Visualizer: records the calls."""

    class geometry:
        class _Geometry:
            def __init__(self, *args, **kwargs):
                self.args, self.kwargs = args, kwargs

        Box = Sphere = Ellipsoid = Cylinder = TriangularMeshGeometry = _Geometry
        MeshLambertMaterial = LineBasicMaterial = PointsGeometry = LineSegments = _Geometry

    class animation:
        class Animation:
            def __init__(self, default_framerate):
                self.fps = default_framerate
                self.frames = {}

            def at_frame(self, vis, k):
                animation = self

                class Frame:
                    def __enter__(self):
                        return self

                    def __exit__(self, *exc):
                        return False

                    def __getitem__(self, path):
                        return FakeMeshcat.Node(lambda call: animation.frames.setdefault(k, []).append((path,) + call))
                return Frame()


class FakeVis:
    def __init__(self):
        self.calls = []
        self.animation = None

    def __getitem__(self, path):
        return FakeMeshcat.Node(lambda call: self.calls.append((path,) + call))

    def set_animation(self, animation):
        self.animation = animation

    def objects(self):
        return {c[0]: c[2] for c in self.calls if c[1] == "set_object"}

    def transforms(self):
        return {c[0]: c[2] for c in self.calls if c[1] == "set_transform"}


class _Node:
    def __init__(self, record):
        self.record = record

    def set_object(self, geometry, material=None):
        self.record(("set_object", geometry, material))

    def set_transform(self, matrix):
        self.record(("set_transform", np.array(matrix)))

    def set_property(self, key, value):
        self.record(("set_property", key, value))

    def delete(self):
        self.record(("delete",))


FakeMeshcat.Node = _Node
# Meshcat's cylinders stand along y, Proxima's along z: the rotation taking y to z.
Y_TO_Z = matrix(rotation([1, 0, 0], math.pi / 2))


class MeshcatTest(unittest.TestCase):
    def page(self):
        page = proxima.viz.Page()
        turn = rotation([0, 1, 0], 0.3)
        page.add_body("box", proxima.Box(1.0, 2.0, 3.0, margin=0.1), matrix(turn, [1, 0, 0]))
        page.add_body("can", proxima.Cylinder(0.5, 2.0), matrix(turn, [0, 1, 0]))
        page.add_body("pill", proxima.Capsule(0.25, 1.0), None)
        page.add_body("floor", proxima.Halfspace([0, 0, 1], 0.0), None, static=True)
        page.add_frame(0.0)
        page.add_frame(0.5, {"box": matrix(None, [1, 0, 1]), "pill": None}, contacts=[[0, 0, 0, 0, 0, 1, 0.01]],
                       segments=[[0, 0, 0, 1, 1, 1]])
        return page, turn

    def test_bodies_and_poses_reach_the_visualizer(self):
        page, turn = self.page()
        vis = FakeVis()
        paths = proxima.viz.to_meshcat(page, vis, frame=0, meshcat=FakeMeshcat)
        self.assertEqual(paths, ["proxima/box", "proxima/can", "proxima/pill", "proxima/floor"])
        objects, transforms = vis.objects(), vis.transforms()
        self.assertEqual(objects["proxima/box"].args, ([1.2, 2.2, 3.2],))  # grown by the margin
        self.assertEqual(objects["proxima/can"].args, (2.0, 0.5))
        # The capsule as a triangle mesh: every vertex within rounding of the capsule's surface.
        v, t = objects["proxima/pill"].args
        segment_z = np.clip(v[:, 2], -0.5, 0.5)
        surface = np.hypot(np.hypot(v[:, 0], v[:, 1]), v[:, 2] - segment_z)
        np.testing.assert_allclose(surface, 0.25, atol=1e-9)
        self.assertEqual(v[:, 2].min(), -0.75)
        self.assertEqual(v[:, 2].max(), 0.75)
        self.assertTrue(np.all((t >= 0) & (t < len(v))))
        # The halfspace as a square on its plane z = 0.
        v, t = objects["proxima/floor"].args
        np.testing.assert_allclose(v[:, 2], 0.0)
        self.assertEqual(len(t), 2)
        np.testing.assert_allclose(transforms["proxima/box"], matrix(turn, [1, 0, 0]), atol=1e-6)
        np.testing.assert_allclose(transforms["proxima/can"], matrix(turn, [0, 1, 0]) @ Y_TO_Z, atol=1e-6)
        np.testing.assert_allclose(transforms["proxima/pill"], np.eye(4), atol=1e-12)
        # Frame 0 has no contacts: none drawn.
        self.assertFalse(any(p.startswith("proxima/contacts/") for p in objects))

    def test_a_later_frame_moves_hides_and_draws_its_contacts(self):
        page, _ = self.page()
        vis = FakeVis()
        proxima.viz.to_meshcat(page.to_json(), vis, frame=-1, prefix="scene", meshcat=FakeMeshcat)
        transforms = vis.transforms()
        np.testing.assert_allclose(transforms["scene/box"], matrix(None, [1, 0, 1]), atol=1e-6)
        self.assertNotIn("scene/pill", transforms)
        self.assertIn(("scene/pill", "set_property", "visible", False), vis.calls)
        np.testing.assert_allclose(transforms["scene/contacts/0"], np.eye(4), atol=1e-12)
        self.assertIn("scene/segments/0", vis.objects())

    def test_animation_holds_every_frame(self):
        page, turn = self.page()
        vis = FakeVis()
        proxima.viz.to_meshcat(json.loads(page.to_json()), vis, animate=True, meshcat=FakeMeshcat)
        animation = vis.animation
        self.assertEqual(sorted(animation.frames), [0, 1])
        self.assertEqual(animation.fps, 2.0)  # two frames 0.5 s apart
        moved = {c[0]: c[2] for c in animation.frames[1] if c[1] == "set_transform"}
        np.testing.assert_allclose(moved["proxima/box"], matrix(None, [1, 0, 1]), atol=1e-6)
        self.assertNotIn("proxima/pill", moved)

    def test_arguments_are_checked(self):
        page, _ = self.page()
        with self.assertRaisesRegex(proxima.Error, r"frame: 2 is out of range \(the page has 2 frames\)"):
            proxima.viz.to_meshcat(page, FakeVis(), frame=2, meshcat=FakeMeshcat)
        with self.assertRaisesRegex(TypeError, "frame: expected a frame index"):
            proxima.viz.to_meshcat(page, FakeVis(), frame=1.0, meshcat=FakeMeshcat)
        with self.assertRaisesRegex(proxima.Error, "page: not a replay page's data"):
            proxima.viz.to_meshcat({"format": "other"}, FakeVis(), meshcat=FakeMeshcat)
        with self.assertRaisesRegex(proxima.Error, "page: expected a proxima.viz.Page"):
            proxima.viz.to_meshcat(3, FakeVis(), meshcat=FakeMeshcat)
        with self.assertRaisesRegex(proxima.Error, "fps: must be a finite number > 0"):
            proxima.viz.to_meshcat(page, FakeVis(), animate=True, fps=0, meshcat=FakeMeshcat)

    def test_importing_proxima_does_not_import_meshcat(self):
        import subprocess
        code = "import sys, proxima, proxima.viz; print('meshcat' in sys.modules)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.strip(), "False")


try:
    import meshcat  # noqa: F401 (optional)
    HAVE_MESHCAT = True
except ImportError:
    HAVE_MESHCAT = False


@unittest.skipUnless(HAVE_MESHCAT, "meshcat is not installed")
class RealMeshcatTest(unittest.TestCase):
    def test_a_visualizer_on_loopback_receives_the_bodies(self):
        import base64
        import re
        import contextlib
        import io
        import meshcat
        import umsgpack  # meshcat's own dependency: the server's commands are msgpack
        page, _ = MeshcatTest.page(self)
        with contextlib.redirect_stdout(io.StringIO()):  # it prints its URL
            vis = meshcat.Visualizer()  # its own server process, listening on 127.0.0.1
        try:
            paths = proxima.viz.to_meshcat(page, vis, frame=1, animate=True)
            scene = vis.static_html()  # the server's scene tree, as the commands that rebuild it
        finally:
            vis.window.zmq_socket.close(linger=0)
            vis.window.server_proc.kill()
            vis.window.server_proc.wait()
        commands = [umsgpack.unpackb(base64.b64decode(b))
                    for b in re.findall(r"data:application/octet-binary;base64,([A-Za-z0-9+/=]+)", scene)]
        objects = {c["path"] for c in commands if c["type"] == "set_object"}
        transforms = {c["path"]: c["matrix"] for c in commands if c["type"] == "set_transform"}
        self.assertEqual(len(paths), 4)
        for path in paths:
            self.assertIn("/meshcat/" + path, objects)
        # Frame 1's box pose, column-major as three.js reads it; the hidden pill has none.
        np.testing.assert_allclose(np.reshape(transforms["/meshcat/proxima/box"], (4, 4)).T,
                                   matrix(None, [1, 0, 1]), atol=1e-6)
        self.assertNotIn("/meshcat/proxima/pill", transforms)
        self.assertTrue(any(c["type"] == "set_animation" for c in commands))


@unittest.skipUnless(shutil.which("chromium"), "chromium is not installed")
class BrowserTest(unittest.TestCase):
    def test_a_python_written_page_runs_in_headless_chromium(self):
        sys.path.insert(0, os.path.join(HERE, "..", "apps"))
        try:
            import viewer_test
        finally:
            sys.path.pop(0)
        viewer_test.CHROMIUM = shutil.which("chromium")
        page = ball_over_box()
        ball = proxima.Pose(p=[0, 0, 0.99])
        c = proxima.contacts(proxima.Sphere(0.5), ball, proxima.Box(2.0, 2.0, 1.0), None)
        page.add_frame(0.0, {"ball": proxima.Pose(p=[0, 0, 2])}, label="above")
        page.add_frame(0.1, {"ball": ball}, c, label="resting")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "python_page.html")
            page.write(path)
            dom = viewer_test.page_runs_cleanly(tmp, path, "#frame=1")
            self.assertIn("resting", viewer_test.info_line(dom))


if __name__ == "__main__":
    unittest.main()
