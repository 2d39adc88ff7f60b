// SPDX-License-Identifier: BSD-3-Clause
// proxima.viz.to_meshcat: a replay page's bodies and frames in a Meshcat
// viewer. Written in Python and run when the module loads, so that meshcat
// (optional, from PyPI) is imported only when to_meshcat is called.
#include <pybind11/eval.h>

#include "convert.hpp"

namespace proxima::python {
namespace {

const char* const kToMeshcat = R"PYTHON(
import json as _json
import math as _math

import numpy as _np

_DYNAMIC_COLOUR = 0x4f8fd8
_STATIC_COLOUR = 0x9a9a9a
_CONTACT_COLOUR = 0xff00ff
_SEGMENT_COLOUR = 0x2040ff
_HALFSPACE_SIZE = 4.0  # m, the square drawn on a halfspace's plane, as the page does


def _page_data(page):
    if isinstance(page, (Page, Recorder, RobotPage)):
        return _json.loads(page.to_json())
    if isinstance(page, (str, bytes)):
        page = _json.loads(page)
    if not isinstance(page, dict):
        raise _Error("page: expected a proxima.viz.Page, Recorder or RobotPage, or the page's data (dict or JSON "
                     "text), got "
                    + type(page).__name__)
    if page.get("format") != "proxima-replay":
        raise _Error("page: not a replay page's data (\"format\" is not \"proxima-replay\")")
    for key in ("shapes", "bodies", "frames"):
        if not isinstance(page.get(key), list):
            raise _Error("page: \"%s\" must be a list" % key)
    return page


def _quaternion_matrix(w, x, y, z):
    n = _math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return _np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _pose_matrix(pose):
    """The 4x4 transform of a page pose [x, y, z, qw, qx, qy, qz]."""
    if len(pose) != 7:
        raise _Error("pose: expected [x, y, z, qw, qx, qy, qz], got %d numbers" % len(pose))
    t = _np.eye(4)
    t[:3, :3] = _quaternion_matrix(*pose[3:])
    t[:3, 3] = pose[:3]
    return t


# Meshcat's cylinders and cones stand along y; Proxima's along z.
_Y_TO_Z = _np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


def _capsule_mesh(r, half, segments=24, rings=6):
    """Vertices and triangles of a capsule along z: a cylinder of half-length
    `half` capped by hemispheres of radius r."""
    rows = []  # (z, ring radius)
    for k in range(rings, -1, -1):
        a = 0.5 * _math.pi * k / rings
        rows.append((-half - r * _math.sin(a), r * _math.cos(a)))
    for k in range(rings + 1):
        a = 0.5 * _math.pi * k / rings
        rows.append((half + r * _math.sin(a), r * _math.cos(a)))
    vertices = []
    for z, rho in rows:
        for s in range(segments):
            a = 2 * _math.pi * s / segments
            vertices.append((rho * _math.cos(a), rho * _math.sin(a), z))
    triangles = []
    for i in range(len(rows) - 1):
        for s in range(segments):
            a, b = i * segments + s, i * segments + (s + 1) % segments
            c, d = a + segments, b + segments
            triangles += [(a, b, d), (a, d, c)]
    return _np.array(vertices), _np.array(triangles)


def _geometry(shape, g):
    """(meshcat geometry, extra transform in the body frame) for a page shape."""
    kind = shape["kind"]
    m = shape.get("margin", 0.0)
    eye = _np.eye(4)
    if kind == "sphere":
        return g.Sphere(shape["radius"] + m), eye
    if kind == "box":
        return g.Box([s + 2 * m for s in shape["size"]]), eye
    if kind == "ellipsoid":
        return g.Ellipsoid([r + m for r in shape["radii"]]), eye
    if kind == "cylinder":
        return g.Cylinder(shape["length"] + 2 * m, shape["radius"] + m), _Y_TO_Z
    if kind == "cone":
        return g.Cylinder(shape["length"] + 2 * m, radiusTop=0.0, radiusBottom=shape["radius"] + m), _Y_TO_Z
    if kind == "capsule":
        v, t = _capsule_mesh(shape["radius"] + m, 0.5 * shape["length"])
        return g.TriangularMeshGeometry(v, t), eye
    if kind == "halfspace":
        n = _np.asarray(shape["normal"], dtype=float)
        n = n / _np.linalg.norm(n)
        u = _np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
        u /= _np.linalg.norm(u)
        w = _np.cross(n, u)
        c = n * shape["offset"]
        h = 0.5 * _HALFSPACE_SIZE
        v = _np.array([c + h * (su * u + sw * w) for su, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        return g.TriangularMeshGeometry(v, _np.array([[0, 1, 2], [0, 2, 3]])), eye
    if kind == "convex":
        v = _np.asarray(shape["vertices"], dtype=float).reshape(-1, 3)
        t = [(f[0], f[i], f[i + 1]) for f in shape["faces"] for i in range(1, len(f) - 1)]
        return g.TriangularMeshGeometry(v, _np.array(t)), eye
    if kind == "mesh":
        v = _np.asarray(shape["vertices"], dtype=float).reshape(-1, 3)
        t = _np.asarray(shape["triangles"], dtype=_np.int64).reshape(-1, 3)
        return g.TriangularMeshGeometry(v, t), eye
    raise _Error("page: unknown shape kind \"%s\"" % kind)


def _paths(prefix, bodies):
    """One meshcat path per body: prefix/name, '/' in a name replaced, a
    repeated name numbered."""
    paths, seen = [], {}
    for b in bodies:
        name = str(b["name"]).replace("/", "_") or "body"
        seen[name] = seen.get(name, 0) + 1
        paths.append("%s/%s" % (prefix, name if seen[name] == 1 else "%s_%d" % (name, seen[name])))
    return paths


def _frame_poses(data, frame):
    """Each body's pose (None: hidden) in frame `frame` (None: the bodies' own poses)."""
    poses = [b["pose"] for b in data["bodies"]]
    if frame is None:
        return poses
    moving = [i for i, b in enumerate(data["bodies"]) if not b.get("static", False)]
    for i, p in zip(moving, data["frames"][frame]["poses"]):
        poses[i] = p
    return poses


def _frame_index(data, frame, name="frame"):
    if frame is None:
        return None
    if isinstance(frame, bool) or not isinstance(frame, int):
        raise TypeError("%s: expected a frame index (int) or None, got %s" % (name, type(frame).__name__))
    n = len(data["frames"])
    if not -n <= frame < n:
        raise _Error("%s: %d is out of range (the page has %d frames)" % (name, frame, n))
    return frame % n


def to_meshcat(page, vis, frame=0, *, prefix="proxima", contacts=True, animate=False, fps=None, meshcat=None):
    """Sends a replay page to a Meshcat viewer `vis` (meshcat.Visualizer):
    each body as meshcat geometry under prefix/<body name> (boxes, spheres,
    ellipsoids, cylinders and cones as meshcat shapes, capsules, polytopes,
    meshes and halfspaces as triangle meshes; primitives grown by their
    margin as the page draws them) at its pose in frame `frame` (an index,
    negative from the end; None: the bodies' own poses), the frame's contact
    points (prefix/contacts) and segments (prefix/segments) when `contacts`.
    With animate=True the frames become a Meshcat animation at `fps` frames
    a second (default: the page's simulated time, or 2 for a page whose
    frames share one time). `page` is a Page, a Recorder or the page's data
    (dict or JSON text), or a RobotPage. `meshcat`: the meshcat module to use (default:
    import meshcat, needed only here). Returns the bodies' paths."""
    data = _page_data(page)
    if not data["frames"] and frame not in (0, None):
        raise _Error("frame: the page has no frames")
    index = _frame_index(data, frame) if data["frames"] else None
    if fps is not None and not (isinstance(fps, (int, float)) and _math.isfinite(fps) and fps > 0):
        raise _Error("fps: must be a finite number > 0")
    if meshcat is None:
        import meshcat  # noqa: the optional dependency, imported on use
    g = meshcat.geometry
    paths = _paths(prefix, data["bodies"])
    shapes = data["shapes"]
    frame_data = data["frames"][index] if index is not None else {}
    extra = []
    for i, (b, path) in enumerate(zip(data["bodies"], paths)):
        shape = shapes[frame_data["shapes"][i]] if "shapes" in frame_data else shapes[b["shape"]]
        geometry, offset = _geometry(shape, g)
        colour = _STATIC_COLOUR if b.get("static", False) else _DYNAMIC_COLOUR
        vis[path].set_object(geometry, g.MeshLambertMaterial(color=colour))
        extra.append(offset)
    for path, pose, offset in zip(paths, _frame_poses(data, index), extra):
        if pose is None:
            vis[path].set_property("visible", False)
        else:
            vis[path].set_property("visible", True)
            vis[path].set_transform(_pose_matrix(pose) @ offset)
    if contacts:
        vis[prefix + "/contacts"].delete()
        vis[prefix + "/segments"].delete()
        for k, c in enumerate(frame_data.get("contacts", [])):
            t = _np.eye(4)
            t[:3, 3] = c[:3]
            p = "%s/contacts/%d" % (prefix, k)
            vis[p].set_object(g.Sphere(0.005), g.MeshLambertMaterial(color=_CONTACT_COLOUR))
            vis[p].set_transform(t)
        for k, s in enumerate(frame_data.get("segments", [])):
            points = _np.array(s, dtype=_np.float32).reshape(2, 3).T
            vis["%s/segments/%d" % (prefix, k)].set_object(
                g.LineSegments(g.PointsGeometry(points), g.LineBasicMaterial(color=_SEGMENT_COLOUR)))
    if animate and data["frames"]:
        times = [f["time"] for f in data["frames"]]
        if fps is None:
            span = times[-1] - times[0]
            fps = (len(times) - 1) / span if span > 0 and len(times) > 1 else 2.0
        animation = meshcat.animation.Animation(default_framerate=fps)
        for k in range(len(data["frames"])):
            with animation.at_frame(vis, k) as f:
                for path, pose, offset in zip(paths, _frame_poses(data, k), extra):
                    if pose is not None:
                        f[path].set_transform(_pose_matrix(pose) @ offset)
        vis.set_animation(animation)
    return paths
)PYTHON";

}  // namespace

void define_to_meshcat(py::module_& viz, const py::object& error) {
  // The script raises proxima.Error, kept under a private name.
  viz.attr("_Error") = error;
  py::exec(kToMeshcat, viz.attr("__dict__"));
}

}  // namespace proxima::python
