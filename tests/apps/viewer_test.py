#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The replay pages of `proxima sim`, `query`, `robot` and `watch --html` in a
real browser: headless Chromium (Debian's chromium, scripts/deps.sh) loads
each page from disk.

* --dump-dom: the page ran to the end (data-proxima-ready) and recorded no
  error and no console.error (the page writes both into #proxima-errors).
  A DOM dump needs no debugging-protocol client, so the test is standard
  library Python only and runs in every build.
* --screenshot at a fixed window size, with the camera and frame fixed
  through the URL hash: the canvas is not blank; a contact marker appears
  where the known contact point projects (the projection is computed here
  from the camera parameters, not by three.js); another frame changes the
  image where the body moved; the distance segment's end points appear where
  the witness points project.
* Robot pages: a link near an obstacle is drawn in the red end of the
  clearance scale where its centre projects, a far one in the green end, the
  legend is on the page, and the watch page's timeline cursor sits where the
  frame's time falls on the strip, in the DOM and in the picture.

Usage: viewer_test.py PROXIMA_BINARY [GROUP]
GROUP (ball_drop, all_shapes, query, robot or watch) runs one group of
checks; ctest runs each group as a test of its own (viewer_GROUP), so that
they share the cores with the other tests.
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

W, H = 640, 480
BACKGROUND = (0xF4, 0xF5, 0xF7)
CONTACT = (0xFF, 0x00, 0xFF)  # replay.js CONTACT_COLOUR
SEGMENT = (0x00, 0xA0, 0xFF)  # replay.js SEGMENT_COLOUR
CURSOR = (0x70, 0x00, 0xFF)  # replay.js STRIP_CURSOR_COLOUR
STRIP_HEIGHT, STRIP_LEFT, STRIP_RIGHT = 150, 150, 12  # replay.html #strip, replay.js STRIP_LEFT / STRIP_RIGHT

checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        raise AssertionError(what)


# ---- PNG reading (8-bit RGB or RGBA, not interlaced: what Chromium writes) ----

def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            check(depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unsupported PNG kind")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        previous = line
    return width, height, [[tuple(r[x * channels:x * channels + 3]) for x in range(width)] for r in rows]


def near(colour, target, tolerance):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def pixels_like(image, target, tolerance=60):
    return [(x, y) for y, row in enumerate(image) for x, c in enumerate(row) if near(c, target, tolerance)]


# ---- the camera's projection, from its parameters (z up, as the page) ----

def project(camera, point):
    px, py, pz, tx, ty, tz, fov = camera
    f = [tx - px, ty - py, tz - pz]
    n = math.sqrt(sum(c * c for c in f))
    f = [c / n for c in f]
    up = [0.0, 0.0, 1.0]
    r = [f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]]
    n = math.sqrt(sum(c * c for c in r))
    r = [c / n for c in r]
    u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]]
    d = [point[0] - px, point[1] - py, point[2] - pz]
    xc, yc, zc = (sum(a * b for a, b in zip(d, v)) for v in (r, u, f))
    t = math.tan(math.radians(fov) / 2)
    ndc_x, ndc_y = xc / (zc * t * W / H), yc / (zc * t)
    return (ndc_x + 1) / 2 * W, (1 - ndc_y) / 2 * H


# ---- running the tools and the browser ----

def run(args, expect_ok=True, env=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env)
    if expect_ok:
        check(p.returncode == 0, f"{' '.join(args)} failed: {p.stderr}")
    return p


def chromium(tmp, url, *extra):
    profile = tempfile.mkdtemp(dir=tmp, prefix="profile")
    args = [CHROMIUM, "--headless", "--no-sandbox", f"--user-data-dir={profile}", "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader", f"--window-size={W},{H}", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--virtual-time-budget=4000", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions", *extra, url]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    shutil.rmtree(profile, ignore_errors=True)
    return p


def page_runs_cleanly(tmp, page, fragment=""):
    dom = chromium(tmp, "file://" + page + fragment, "--dump-dom").stdout
    check('data-proxima-ready="' in dom, f"{page}{fragment}: the viewer did not finish:\n{dom[-2000:]}")
    start = dom.find('<pre id="proxima-errors"')
    errors = dom[dom.find(">", start) + 1:dom.find("</pre>", start)]
    check(start >= 0 and errors.strip() == "", f"{page}{fragment}: errors in the page: {errors}")
    return dom


def info_line(dom):
    """The text of the page's frame line (#info)."""
    start = dom.index('<span id="info">') + len('<span id="info">')
    return dom[start:dom.index("</span>", start)]


def screenshot(tmp, page, camera, frame, name, extra=""):
    png = os.path.join(tmp, name + ".png")
    fragment = "#camera=" + ",".join(repr(c) for c in camera) + f"&frame={frame}&ui=0{extra}"
    chromium(tmp, "file://" + page + fragment, f"--screenshot={png}")
    check(os.path.exists(png), f"no screenshot of {page}{fragment}")
    w, h, image = read_png(png)
    check((w, h) == (W, H), f"screenshot is {w}x{h}, expected {W}x{H}")
    return image


def page_data(page):
    text = open(page, encoding="utf-8").read()
    tag = '<script type="application/json" id="proxima-data">'
    start = text.index(tag) + len(tag)
    return json.loads(text[start:text.index("</script>", start)])


def centroid(points):
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


# ---- the cases ----

BALL_SCENE = {
    "name": "ball_drop", "dt": 0.002, "time": 1.0,
    "bodies": [
        {"name": "floor", "static": True, "shape": {"shape": "box", "size": [3, 3, 0.2]}, "pose": {"p": [0, 0, -0.1]}},
        {"name": "ball", "shape": {"shape": "sphere", "radius": 0.25}, "density": 1000,
         "pose": {"p": [0.3, -0.2, 1.0]}},
    ],
}

# Every shape kind of the scene format; one dynamic body, so the run is short.
ALL_SHAPES_SCENE = {
    "name": "all_shapes", "dt": 0.002, "time": 0.2,
    "bodies": [
        {"name": "ground", "static": True, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
        {"name": "box", "static": True, "shape": {"shape": "box", "size": [0.3, 0.2, 0.1], "margin": 0.01},
         "pose": {"p": [-1, 0, 0.06]}},
        {"name": "sphere", "static": True, "shape": {"shape": "sphere", "radius": 0.15},
         "pose": {"p": [-0.5, 0, 0.15]}},
        {"name": "cylinder", "static": True, "shape": {"shape": "cylinder", "radius": 0.1, "length": 0.3},
         "pose": {"p": [0, 0, 0.15]}},
        {"name": "cone", "static": True, "shape": {"shape": "cone", "radius": 0.12, "length": 0.3},
         "pose": {"p": [0.5, 0, 0.15]}},
        {"name": "ellipsoid", "static": True, "shape": {"shape": "ellipsoid", "radii": [0.2, 0.1, 0.08]},
         "pose": {"p": [1, 0, 0.08]}},
        {"name": "polytope", "static": True,
         "shape": {"shape": "convex", "points": [[0, 0, 0], [0.2, 0, 0], [0, 0.2, 0], [0, 0, 0.2], [0.2, 0.2, 0.1]]},
         "pose": {"p": [-1, 0.6, 0]}},
        {"name": "tetra_mesh", "static": True,
         "shape": {"shape": "mesh", "vertices": [[0, 0, 0], [0.2, 0, 0], [0, 0.2, 0], [0, 0, 0.2]],
                   "triangles": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]},
         "pose": {"p": [-0.4, 0.6, 0]}},
        {"name": "capsule", "shape": {"shape": "capsule", "radius": 0.08, "length": 0.3}, "density": 500,
         "pose": {"p": [0.3, 0.6, 0.5], "q": [0.7071068, 0.7071068, 0, 0]}},
    ],
}


def test_cli_errors(tmp, scene):
    for args, needle in ((["--html"], "--html"), (["--html", ""], "--html: needs a file name"),
                         (["--html", os.path.join(tmp, "no", "such", "dir.html")], "--html: ")):
        p = run([PROXIMA, "sim", scene, "--quiet", *args], expect_ok=False)
        check(p.returncode != 0 and needle in p.stderr, f"sim {args}: {p.returncode} {p.stderr!r}")
    env = dict(os.environ, PROXIMA_LIBJS_THREE_PREFIX=os.path.join(tmp, "nowhere"))
    for command in (["sim", scene, "--quiet"], ["query"]):
        p = subprocess.run([PROXIMA, *command, "--html", os.path.join(tmp, "x.html")], input="", capture_output=True,
                           text=True, env=env, timeout=60)
        check(p.returncode != 0 and "--html" in p.stderr and "libjs-three" in p.stderr, f"{command}: {p.stderr!r}")


def test_ball_drop(tmp):
    scene = os.path.join(tmp, "ball_drop.json")
    with open(scene, "w") as f:
        json.dump(BALL_SCENE, f)
    test_cli_errors(tmp, scene)
    page = os.path.join(tmp, "ball_drop.html")
    run([PROXIMA, "sim", scene, "--quiet", "--html", page])
    data = page_data(page)
    frames = data["frames"]
    check(len(frames) == 501 and frames[-1]["step"] == 500, f"{len(frames)} frames")
    page_runs_cleanly(tmp, page)

    # The ball rests on the floor: its one contact is under its centre, at z = 0.
    last = len(frames) - 1
    contacts = frames[last]["contacts"]
    check(len(contacts) == 1, f"{len(contacts)} contacts at rest")
    contact = contacts[0][:3]
    check(math.dist(contact, [0.3, -0.2, 0.0]) < 2e-3, f"contact at {contact}")
    check(abs(frames[last]["poses"][0][2] - 0.25) < 2e-3, f"ball centre at {frames[last]['poses'][0]}")

    # The frame line shows the frame's step, simulated time and contacts.
    info = info_line(page_runs_cleanly(tmp, page, f"#frame={last}"))
    check(f"frame {last + 1}/{len(frames)}  step 500  t = 1.000 s  contacts 1" in info, f"frame line: {info!r}")
    info = info_line(page_runs_cleanly(tmp, page, "#frame=250"))
    check("step 250  t = 0.500 s" in info, f"frame line: {info!r}")

    camera = (2.0, -3.0, 1.5, 0.3, -0.2, 0.4, 40.0)
    rest = screenshot(tmp, page, camera, last, "rest")
    # Not blank: the floor, the ball and the marker give many colours, and
    # much of the picture is not background.
    colours = {c for row in rest for c in row}
    drawn = sum(1 for row in rest for c in row if not near(c, BACKGROUND, 6))
    check(len(colours) > 50 and drawn > 0.1 * W * H, f"{len(colours)} colours, {drawn} drawn pixels")

    # The contact marker is centred where the contact point projects.
    expected = project(camera, [0.3, -0.2, 0.0])
    marker = pixels_like(rest, CONTACT)
    check(len(marker) >= 12, f"{len(marker)} marker pixels")
    got = centroid(marker)
    check(math.dist(got, expected) < 3.0, f"marker at {got}, contact projects to {expected}")

    # Hidden contacts: no marker.
    hidden = screenshot(tmp, page, camera, last, "hidden", "&contacts=0")
    check(len(pixels_like(hidden, CONTACT)) == 0, "a contact marker with contacts=0")

    # Frame 0: the ball is up where it started. Its centre's pixel shows the
    # ball there and the background once it has fallen, and the other way
    # round at its resting place.
    start = screenshot(tmp, page, camera, 0, "start")
    up = [round(v) for v in project(camera, [0.3, -0.2, 1.0])]
    down = [round(v) for v in project(camera, [0.3, -0.2, 0.25])]
    check(not near(start[up[1]][up[0]], BACKGROUND, 10), f"frame 0 at {up}: {start[up[1]][up[0]]}")
    check(near(rest[up[1]][up[0]], BACKGROUND, 10), f"last frame at {up}: {rest[up[1]][up[0]]}")
    check(start[down[1]][down[0]] != rest[down[1]][down[0]], f"the resting place {down} looks the same")
    changed = sum(1 for a, b in zip(start, rest) for p, q in zip(a, b) if p != q)
    check(changed > 500, f"{changed} pixels differ between frames 0 and {last}")


def test_all_shapes(tmp):
    scene = os.path.join(tmp, "all_shapes.json")
    with open(scene, "w") as f:
        json.dump(ALL_SHAPES_SCENE, f)
    page = os.path.join(tmp, "all_shapes.html")
    run([PROXIMA, "sim", scene, "--quiet", "--html", page])
    kinds = {s["kind"] for s in page_data(page)["shapes"]}
    check(kinds == {"halfspace", "box", "sphere", "cylinder", "cone", "ellipsoid", "convex", "mesh", "capsule"},
          f"shape kinds {sorted(kinds)}")
    page_runs_cleanly(tmp, page)  # playing from frame 0
    page_runs_cleanly(tmp, page, "#frame=50")
    image = screenshot(tmp, page, (1.2, -2.4, 1.4, 0, 0.3, 0.1, 45.0), 100, "all_shapes")
    colours = {c for row in image for c in row}
    check(len(colours) > 100, f"all shapes: {len(colours)} colours")
    # A page refuses a frame it does not have, and says so.
    dom = chromium(tmp, "file://" + page + "#frame=9999", "--dump-dom").stdout
    check("#frame: 9999" in dom, "frame 9999 not reported")
    dom = chromium(tmp, "file://" + page + "#camera=1,2,3", "--dump-dom").stdout
    check("#camera: expected px,py,pz,tx,ty,tz" in dom, "a short camera not reported")


def test_query(tmp):
    requests = [
        {"id": 1, "query": "distance", "a": {"shape": "sphere", "radius": 0.5},
         "b": {"shape": "sphere", "radius": 0.5}, "pose_b": {"p": [2, 0, 0]}},
        {"id": 2, "query": "contacts", "a": {"shape": "box", "size": [1, 1, 1]}, "pose_a": {"p": [0, 0, 0.49]},
         "b": {"shape": "box", "size": [4, 4, 1]}, "pose_b": {"p": [0, 0, -0.5]}},
        {"id": 3, "query": "distance", "a": {"shape": "sphere", "radius": -1}},
    ]
    page = os.path.join(tmp, "query.html")
    p = subprocess.run([PROXIMA, "query", "--html", page], input="\n".join(json.dumps(r) for r in requests) + "\n",
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, p.stderr)
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    check([a["status"] for a in answers] == ["ok", "ok", "error"], f"answers {answers}")
    check(len(page_data(page)["frames"]) == 2, "query page frames")
    info = info_line(page_runs_cleanly(tmp, page, "#frame=0"))
    check("id 1: distance, apart, distance 1 m" in info, f"query frame line: {info!r}")

    # Frame 0: witness points at x = 0.5 and x = 1.5 (closed form, two unit-diameter spheres 2 m apart).
    camera = (1.0, -4.0, 1.0, 1.0, 0.0, 0.0, 40.0)
    image = screenshot(tmp, page, camera, 0, "query_distance")
    segment = pixels_like(image, SEGMENT, 50)
    check(len(segment) > 20, f"{len(segment)} segment pixels")
    for point in ([0.5, 0, 0], [1.5, 0, 0]):
        x, y = project(camera, point)
        close = [q for q in segment if math.dist(q, (x, y)) < 6]
        check(len(close) >= 8, f"witness {point}: {len(close)} segment pixels near {(x, y)}")
    # Frame 1: the four contacts at the box's bottom corners.
    camera = (2.0, -3.5, 2.5, 0.0, 0.0, 0.0, 40.0)
    image = screenshot(tmp, page, camera, 1, "query_contacts")
    marker = pixels_like(image, CONTACT)
    for cx in (-0.5, 0.5):
        for cy in (-0.5, 0.5):
            x, y = project(camera, [cx, cy, 0.0])
            close = [q for q in marker if math.dist(q, (x, y)) < 6]
            check(len(close) >= 8, f"contact ({cx}, {cy}): {len(close)} marker pixels near {(x, y)}")


# ---- robot pages ----

# A box base, a carriage sliding along x and a ball 0.5 m above it; a wall
# whose face toward the robot is the plane x = 0.55.
SLIDER_URDF = """<?xml version="1.0"?>
<robot name="slider">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="carriage"/>
  <link name="ball"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="mount" type="fixed"><parent link="carriage"/><child link="ball"/><origin xyz="0 0 0.5"/></joint>
</robot>
"""
WALL = {"name": "wall", "geometry": {"shape": "box", "size": [0.1, 1, 1]}, "pose": {"p": [0.6, 0, 0.5]}}
ROBOT_CAMERA = (0.2, -3.0, 0.7, 0.2, 0.0, 0.3, 40.0)


def reddish(c):
    return c[0] > 120 and c[0] > 2 * c[1] and c[0] > 2 * c[2]


def greenish(c):
    return c[1] > c[0] + 30 and c[1] > c[2] + 30


def colour_near(image, point, test, radius=3):
    """How many pixels within `radius` of `point` pass `test`."""
    x, y = (round(v) for v in point)
    return sum(1 for j in range(y - radius, y + radius + 1) for i in range(x - radius, x + radius + 1)
               if 0 <= i < len(image[0]) and 0 <= j < len(image) and test(image[j][i]))


def test_html_flag_errors(tmp, urdf):
    """robot and watch refuse --html as sim does, naming the flag, before reading a line."""
    for command in (["robot", urdf], ["watch", urdf]):
        for args, needle in ((["--html"], "--html"), (["--html", ""], "--html: needs a file name"),
                             (["--html", os.path.join(tmp, "no", "such", "dir.html")], "--html: ")):
            p = subprocess.run([PROXIMA, *command, *args], input="", capture_output=True, text=True, timeout=60)
            check(p.returncode != 0 and needle in p.stderr and p.stdout == "", f"{command} {args}: {p.stderr!r}")
        env = dict(os.environ, PROXIMA_LIBJS_THREE_PREFIX=os.path.join(tmp, "nowhere"))
        p = subprocess.run([PROXIMA, *command, "--html", os.path.join(tmp, "x.html")], input="", capture_output=True,
                           text=True, env=env, timeout=60)
        check(p.returncode != 0 and "--html" in p.stderr and "libjs-three" in p.stderr, f"{command}: {p.stderr!r}")


def slider_urdf(tmp):
    urdf = os.path.join(tmp, "slider.urdf")
    with open(urdf, "w") as f:
        f.write(SLIDER_URDF)
    return urdf


def test_robot(tmp):
    urdf = slider_urdf(tmp)
    test_html_flag_errors(tmp, urdf)
    page = os.path.join(tmp, "robot.html")
    xs = [0.0, 0.2, 0.44]
    lines = [json.dumps({"id": i, "q": [x], "environment": [WALL]}) for i, x in enumerate(xs)]
    p = subprocess.run([PROXIMA, "robot", urdf, "--html", page], input="\n".join(lines) + "\n", capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0, p.stderr)
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    check([a["status"] for a in answers] == ["ok"] * 3, f"answers {answers}")
    data = page_data(page)
    check(len(data["frames"]) == 3 and data["links"] == ["base", "ball"], f"{len(data['frames'])} frames")
    # The ball's clearance is the wall's closed form (0.55 − x − 0.1) or the base's (0.3 at x = 0).
    ball = [f["clearances"][1] for f in data["frames"]]
    for got, want in zip(ball, [0.3, 0.25, 0.01]):
        check(abs(got - want) < 1e-6, f"ball clearances {ball}")
    dom = page_runs_cleanly(tmp, page, "#frame=2")
    legend = dom[dom.index('<div id="legend"'):]
    legend = legend[:legend.index("</canvas>") + 200]
    check('class="hidden"' not in legend[:60] and "clearance (m)" in legend, f"legend: {legend[:300]!r}")
    check("≥ 0.2 m" in dom, "the legend's far end is not labelled")
    check("id 2, closest ball to wall 10.0 mm" in info_line(dom), f"frame line: {info_line(dom)!r}")

    # Frame 2: the ball 1 cm from the wall is red where its centre projects, the base green; frame 0: the ball green.
    near = screenshot(tmp, page, ROBOT_CAMERA, 2, "robot_near")
    ball_at = project(ROBOT_CAMERA, [0.44, 0, 0.5])
    base_at = project(ROBOT_CAMERA, [0, 0, 0])
    check(colour_near(near, ball_at, reddish) >= 40, f"ball at {ball_at}: {near[round(ball_at[1])][round(ball_at[0])]}")
    check(colour_near(near, base_at, greenish) >= 40,
          f"base at {base_at}: {near[round(base_at[1])][round(base_at[0])]}")
    far = screenshot(tmp, page, ROBOT_CAMERA, 0, "robot_far")
    start_at = project(ROBOT_CAMERA, [0.0, 0, 0.5])
    check(colour_near(far, start_at, greenish) >= 40, f"frame 0 ball: {far[round(start_at[1])][round(start_at[0])]}")
    check(colour_near(far, start_at, reddish) == 0, "frame 0: a red ball")

    # With the interface shown, the legend's bar holds both ends of the scale (top right).
    png = os.path.join(tmp, "robot_ui.png")
    chromium(tmp, "file://" + page + "#frame=2", f"--screenshot={png}")
    _, _, ui = read_png(png)
    corner = [c for row in ui[:60] for c in row[W - 240:]]
    check(sum(map(reddish, corner)) > 100 and sum(map(greenish, corner)) > 100, "the legend's colours are not drawn")


def test_watch(tmp):
    urdf = slider_urdf(tmp)
    cell = os.path.join(tmp, "cell.json")
    with open(cell, "w") as f:
        json.dump({"environment": [WALL]}, f)
    page = os.path.join(tmp, "watch.html")
    samples = [{"t": 0.05 * k, "q": [0.43 * k / 40]} for k in range(41)]
    p = subprocess.run([PROXIMA, "watch", urdf, "--environment", cell, "--html", page],
                       input="\n".join(json.dumps(s) for s in samples) + "\n", capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, p.stderr)
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    check(len(answers) == 41 and answers[-1]["level"] in ("slow", "stop"), f"last answer {answers[-1]}")
    data = page_data(page)
    frames = data["frames"]
    check(len(frames) == 41 and data["strip"] is True, f"{len(frames)} frames")
    names = [t["name"] for t in data["timelines"]]
    check(names == ["clearance", "level", "speed factor"], f"timelines {names}")
    levels = ["clear", "warn", "slow", "stop"]
    check([levels[int(v)] for v in data["timelines"][1]["values"]] == [a["level"] for a in answers], "levels")

    # The cursor is where each frame's time falls on the strip, and moves with the frame.
    t0, t1 = frames[0]["time"], frames[-1]["time"]
    width = W - STRIP_LEFT - STRIP_RIGHT
    cursor = {}
    for frame in (0, 20, 40):
        dom = page_runs_cleanly(tmp, page, f"#frame={frame}")
        start = dom.index('<canvas id="strip"')
        tag = dom[start:dom.index(">", start)]
        x = int(tag.split('data-cursor-x="')[1].split('"')[0])
        expected = STRIP_LEFT + (frames[frame]["time"] - t0) / (t1 - t0) * width
        check(abs(x - expected) <= 1, f"frame {frame}: cursor at {x}, expected {expected}")
        check('class="hidden"' not in tag, "the strip is hidden")
        png = os.path.join(tmp, f"watch_ui_{frame}.png")
        chromium(tmp, "file://" + page + f"#frame={frame}", f"--screenshot={png}")
        _, _, image = read_png(png)
        drawn = [(i, j) for j in range(H - STRIP_HEIGHT, H) for i in range(W) if near(image[j][i], CURSOR, 40)]
        check(len(drawn) > 100, f"frame {frame}: {len(drawn)} cursor pixels")
        cursor[frame] = centroid(drawn)[0]
        check(abs(cursor[frame] - expected) < 2.5,
              f"frame {frame}: cursor drawn at {cursor[frame]}, expected {expected}")
    check(cursor[0] < cursor[20] < cursor[40], f"the cursor does not move: {cursor}")

    # The ball 2 cm from the wall at the end (the red end of the stop-to-warn scale) is red where it projects.
    image = screenshot(tmp, page, ROBOT_CAMERA, 40, "watch_near")
    at = project(ROBOT_CAMERA, [0.43, 0, 0.5])
    check(colour_near(image, at, reddish) >= 40, f"watch: ball at {at}: {image[round(at[1])][round(at[0])]}")


def main():
    global PROXIMA, CHROMIUM
    groups = {f.__name__[len("test_"):]: f for f in (test_ball_drop, test_all_shapes, test_query, test_robot,
                                                      test_watch)}
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] not in groups):
        sys.exit(__doc__)
    PROXIMA = sys.argv[1]
    CHROMIUM = os.environ.get("PROXIMA_CHROMIUM") or shutil.which("chromium")
    if not CHROMIUM:
        sys.exit("viewer_test: chromium not found (Debian's chromium; scripts/deps.sh installs it)")
    keep = os.environ.get("PROXIMA_VIEWER_TEST_DIR")  # keeps the pages and screenshots there
    if keep:
        os.makedirs(keep, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="proxima_viewer_") as tmp:
        for test in [groups[sys.argv[2]]] if len(sys.argv) == 3 else groups.values():
            test(keep or tmp)
            print(f"{test.__name__}: ok")
    print(f"viewer_test: {checks} checks passed")


if __name__ == "__main__":
    main()
