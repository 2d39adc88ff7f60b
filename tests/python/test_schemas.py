# SPDX-License-Identifier: BSD-3-Clause
"""The JSON Schemas of docs/schemas against the documents and the command.

(a) Every input example in docs/*.md (a ```json block, named by the
`<!-- schema: ... -->` line above it) and every scene in examples/ validates
against its schema.
(b) The parser and the schema agree on the accepted set: a corpus of valid
inputs and of mutations of them (a key misspelt, a key added, a type
changed, a number out of range) is fed to `proxima` (query, robot and watch
lines, cell files, scene files), which must accept exactly the inputs the
schema accepts.

The command is $PROXIMA_CLI, else build/bin/proxima of the checkout.
"""

import copy
import json
import os
import pathlib
import re
import subprocess
import tempfile

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
BASE = "https://proxima.invalid/schemas/"
PANDA = ROOT / "tests" / "data" / "robots" / "panda"


def _registry():
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        assert schema["$id"] == BASE + path.name, path
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def validator(ref):
    """A validator for a schema file name, with an optional #/pointer."""
    return Draft202012Validator({"$ref": BASE + ref}, registry=REGISTRY)


def accepts(ref, document):
    return validator(ref).is_valid(document)


def cli():
    path = pathlib.Path(os.environ.get("PROXIMA_CLI", ROOT / "build" / "bin" / "proxima"))
    if not path.exists():
        pytest.fail(f"the proxima command is not at {path} (build the proxima_app target or set PROXIMA_CLI)")
    return str(path)


# ---------------------------------------------------------------- the schemas


def test_every_schema_is_a_valid_draft_2020_12_schema():
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert names == [
        "cell.schema.json",
        "environment.schema.json",
        "program.schema.json",
        "query.schema.json",
        "robot-request.schema.json",
        "scene.schema.json",
        "shapes.schema.json",
        "watch-line.schema.json",
    ]
    for name in names:
        Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text()))


def _objects_without_closed_properties(node, where):
    """Object schemas that list properties but leave others open. The
    subschemas of conditions (if, then, else, not) only test or restrict
    properties an enclosing object schema declares."""
    found = []
    if isinstance(node, dict):
        if "properties" in node and node.get("additionalProperties") is not False:
            found.append(where)
        for key, value in node.items():
            if key not in ("if", "then", "else", "not"):
                found += _objects_without_closed_properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _objects_without_closed_properties(value, f"{where}/{i}")
    return found


def test_every_object_schema_refuses_unknown_keys():
    checked = 0
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        assert _objects_without_closed_properties(schema, path.name) == []
        checked += 1
    assert checked == 8


# ------------------------------------------------- (a) documents and examples


def _json_values(text):
    """The JSON values of a block: one document, or several one after another."""
    decoder = json.JSONDecoder()
    values, at = [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        value, at = decoder.raw_decode(text, at)
        values.append(value)


def _doc_examples():
    """(doc, line, schema ref, block text) of every ```json block in docs/*.md."""
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        lines = doc.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.strip() != "```json":
                continue
            marker = re.fullmatch(r"<!-- schema: schemas/(\S+) -->", lines[i - 1].strip()) if i > 0 else None
            end = lines.index("```", i + 1)
            found.append((doc.name, i + 1, marker.group(1) if marker else None, "\n".join(lines[i + 1 : end])))
    return found


def test_every_json_example_in_the_docs_names_its_schema_and_validates():
    examples = _doc_examples()
    assert len(examples) >= 8
    for doc, line, ref, text in examples:
        assert ref is not None, f"{doc}:{line}: a ```json block needs a <!-- schema: schemas/NAME --> line above it"
        values = _json_values(text)
        assert values, f"{doc}:{line}: no JSON in the block"
        for value in values:
            errors = [e.message for e in validator(ref).iter_errors(value)]
            assert errors == [], f"{doc}:{line} against {ref}: {errors}"


def test_every_example_scene_validates_and_runs():
    scenes = sorted((ROOT / "examples").glob("*.json"))
    assert len(scenes) >= 10
    for scene in scenes:
        document = json.loads(scene.read_text())
        errors = [e.message for e in validator("scene.schema.json").iter_errors(document)]
        assert errors == [], f"{scene.name}: {errors}"
        run = subprocess.run([cli(), "sim", str(scene), "--time", "0.002"], capture_output=True, text=True)
        assert run.returncode == 0, f"{scene.name}: {run.stderr}"


# ------------------------------------------------------------ (b) the corpus


def _leaves_and_objects(node, path=()):
    """Every (path, value) below node, the root excluded."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,), value
            yield from _leaves_and_objects(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield path + (i,), value
            yield from _leaves_and_objects(value, path + (i,))


def _at(node, path):
    for step in path:
        node = node[step]
    return node


def _maps(path):
    """Objects whose keys are names the cell chooses (no key of the format)."""
    return len(path) >= 1 and path[-1] == "thresholds"


def mutations(document):
    """(what, mutated) pairs: each key misspelt, a key added to each object,
    each value's type changed, each number put out of range."""
    out = []
    objects = [((), document)] if isinstance(document, dict) else []
    objects += [(p, v) for p, v in _leaves_and_objects(document) if isinstance(v, dict)]
    for path, obj in objects:
        if not _maps(path):
            for key in obj:
                m = copy.deepcopy(document)
                parent = _at(m, path)
                # Rebuilt in order, the key renamed in place: a typo.
                items = [(k + "x" if k == key else k, v) for k, v in parent.items()]
                parent.clear()
                parent.update(items)
                out.append((f"misspelt {path + (key,)}", m))
        m = copy.deepcopy(document)
        _at(m, path)["extra_key"] = 1
        out.append((f"added a key to {path}", m))
    for path, value in _leaves_and_objects(document):
        m = copy.deepcopy(document)
        replacement = 7 if isinstance(value, str) else "x"
        _at(m, path[:-1])[path[-1]] = replacement
        out.append((f"{path} as {replacement!r}", m))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            m = copy.deepcopy(document)
            _at(m, path[:-1])[path[-1]] = 1e300
            out.append((f"{path} = 1e300", m))
    return out


def corpus(valid):
    """The valid documents and all their mutations, as (what, document)."""
    out = [("valid", v) for v in valid]
    for v in valid:
        out += mutations(v)
    return out


def _agree(ref, cases, accepted):
    """Asserts the command's verdicts equal the schema's; returns the count."""
    assert len(cases) == len(accepted)
    disagreements = []
    for (what, document), cli_accepts in zip(cases, accepted):
        schema_accepts = accepts(ref, document)
        if schema_accepts != cli_accepts:
            disagreements.append(f"{what}: schema {schema_accepts}, proxima {cli_accepts}: {json.dumps(document)[:300]}")
    assert disagreements == [], "\n".join(disagreements[:20])
    return len(cases)


def _stream(args, documents, status_key="status"):
    """Feeds one document a line; returns, per line, whether it was accepted."""
    text = "".join(json.dumps(d) + "\n" for d in documents)
    run = subprocess.run([cli(), *args], input=text, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(documents)
    return [a[status_key] != "error" for a in answers]


READY = [0, -0.785, 0, -2.356, 0, 1.571, 0.785]
MESH = {"shape": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "triangles": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], "margin": 0.01}
BOX = {"shape": "box", "size": [0.2, 0.3, 0.4], "margin": 0.01}
POSE = {"p": [0.1, 0, 2], "q": [1, 0, 0, 0]}

QUERIES = [
    {"id": 1, "query": "distance", "a": BOX, "pose_a": POSE, "b": {"shape": "capsule", "radius": 0.1, "length": 0.5},
     "pose_b": {"p": [0, 0, -1]}, "method": "gjk_epa", "warm_start": [0, 0, 1], "bound": 10},
    {"id": "c", "query": "contacts", "a": {"shape": "sphere", "radius": 0.5}, "b": {"shape": "halfspace",
     "normal": [0, 0, 1], "offset": 0}, "pose_a": {"p": [0, 0, 0.45]}, "margin": 0.01, "feature_tolerance": 1e-6,
     "disc_points": 8, "max_points": 4},
    {"query": "tolerance", "a": {"shape": "ellipsoid", "radii": [0.1, 0.2, 0.3]}, "b": {"shape": "cone", "radius": 0.2,
     "length": 0.4}, "pose_b": POSE, "tolerance": 0.5},
    {"query": "time_of_impact", "a": {"shape": "cylinder", "radius": 0.1, "length": 0.2}, "b": {"shape": "convex",
     "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "pose_a": {"p": [0, 0, 3]}, "pose_a_end": {"p": [0, 0, -3]},
     "clearance": 0.01, "accuracy": 1e-4, "max_iterations": 500},
    {"id": 5, "query": "contacts", "a": MESH, "b": BOX, "pose_b": {"p": [0.2, 0.2, 0.2]}, "margin": 0.01,
     "max_contacts": 4, "cluster": True, "patch_angle": 0.1, "cluster_weights": {"point": 1, "normal": 0.5, "depth": 1},
     "hierarchical_limit": 64, "drop_shadowed": True, "feature_pairs": False, "patch_hulls": False},
    {"query": "collide", "a": BOX, "b": MESH, "method": "auto"},
]


def test_query_lines_are_accepted_exactly_when_the_schema_accepts_them():
    cases = corpus(QUERIES)
    accepted = _stream(["query"], [d for _, d in cases])
    assert accepted[: len(QUERIES)] == [True] * len(QUERIES)
    assert _agree("query.schema.json", cases, accepted) > 300


TABLE = {"name": "table", "geometry": {"shape": "box", "size": [1.5, 1.5, 0.1]}, "pose": {"p": [0.2, 0, -0.08]},
         "group": "furniture"}
SCAN = {"name": "scan", "geometry": {"shape": "point_cloud", "points": [[0.5, 0.5, 0.5], [0.52, 0.5, 0.5]],
        "voxel": 0.05, "min_points": 1}, "touch_links": ["panda_hand"]}
TOOL = {"name": "tool", "link": "panda_hand", "geometry": {"shape": "sphere", "radius": 0.02},
        "pose": {"p": [0, 0, 0.1]}, "touch_links": ["panda_leftfinger"]}
ROBOT_LINES = [
    {"id": 1, "q": READY, "tolerance": 0.05, "base": {"p": [0, 0, 0]}, "environment": [TABLE, SCAN],
     "attached": [TOOL]},
    {"id": 2, "q": READY, "q_end": [0, 0.5, 0, -2.356, 0, 1.571, 0.785], "environment": [TABLE],
     "motion": {"clearance": 0.01, "accuracy": 1e-3, "max_iterations": 1000, "self": True}},
    {"id": 3, "scene": [TABLE], "hold": [TOOL]},
]


def test_robot_requests_are_accepted_exactly_when_the_schema_accepts_them():
    cases = corpus(ROBOT_LINES)
    args = ["robot", str(PANDA / "panda.urdf"), "--srdf", str(PANDA / "panda.srdf")]
    accepted = _stream(args, [d for _, d in cases])
    assert accepted[: len(ROBOT_LINES)] == [True] * len(ROBOT_LINES)
    assert _agree("robot-request.schema.json", cases, accepted) > 150


WATCH_LINES = [
    {"t": 0.0, "q": READY},
    {"t": 0.1},
    {"t": 0.2, "program": {"waypoints": [{"t": 0, "q": READY}, {"t": 2, "q": [0.1, -0.785, 0, -2.356, 0, 1.571, 0.785]}]}},
    {"t": 0.3, "program": {"to": READY, "speed": 0.5}, "q": READY},
    {"t": 0.4, "program": None},
]


def test_watch_lines_are_accepted_exactly_when_the_schema_accepts_them():
    cases = corpus(WATCH_LINES)
    # One stream: each line that keeps a numeric "t" gets the next time, so
    # that only the line itself decides (a refused line changes nothing).
    documents = []
    for i, (_, d) in enumerate(cases):
        d = copy.deepcopy(d)
        if isinstance(d, dict) and isinstance(d.get("t"), (int, float)) and d["t"] != 1e300:
            d["t"] = 0.01 * (i + 1)
        documents.append(d)
    args = ["watch", str(PANDA / "panda.urdf"), "--srdf", str(PANDA / "panda.srdf")]
    accepted = _stream(args, documents, status_key="status")
    assert accepted[: len(WATCH_LINES)] == [True] * len(WATCH_LINES)
    assert _agree("watch-line.schema.json", list(zip([w for w, _ in cases], documents)), accepted) > 80


def _file_accepted(args, document):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(document, f)
    try:
        run = subprocess.run([cli(), *[a.replace("{}", f.name) for a in args]], input="", capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode == 0


CELL = {"environment": [TABLE], "attached": [TOOL],
        "thresholds": {"furniture": {"stop": 0.02, "slow": 0.15, "warn": 0.3}},
        "program": {"to": READY, "speed": 0.5}}


def test_cell_files_are_accepted_exactly_when_the_schema_accepts_them():
    cases = corpus([CELL, [TABLE]])
    args = ["watch", str(PANDA / "panda.urdf"), "--srdf", str(PANDA / "panda.srdf"), "--environment", "{}"]
    accepted = [_file_accepted(args, d) for _, d in cases]
    assert accepted[:2] == [True, True]
    assert _agree("cell.schema.json", cases, accepted) > 100


SCENE = {
    "name": "corpus", "dt": 0.001, "time": 0.002, "gravity": [0, 0, -9.81],
    "solver": {"kind": "pgs", "friction_directions": 4, "contact_margin": 0.005, "stabilization": 0.2,
               "pgs_iterations": 50, "warm_start": True, "contact_reuse": False, "pgs_tolerance": 1e-6,
               "pgs_regularization": 0.01, "pgs_over_relaxation": 1.2, "friction_basis": "sliding",
               "pgs_order": "top_down"},
    "bodies": [
        {"name": "floor", "static": True, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
        {"name": "box", "shape": {"shape": "box", "size": [0.2, 0.2, 0.2]}, "density": 1000,
         "pose": {"p": [0, 0, 0.1], "q": [1, 0, 0, 0]}, "velocity": [0, 0, 0], "angular_velocity": [0, 0, 1]},
        {"name": "ball", "shape": {"shape": "tessellated_sphere", "radius": 0.1, "vertices": 40, "rest": "vertex",
         "margin": 0.001}, "mass": 2, "inertia": [0.01, 0.01, 0.01], "com": [0, 0, 0.1], "pose": {"p": [1, 0, 0]}},
        {"name": "tet", "shape": dict(MESH, max_contacts=8), "mass": 1, "pose": {"p": [-1, 0, 0.5]}},
    ],
    "friction": {"default": 0.5, "pairs": [{"a": "box", "b": "floor", "mu": 0.3}]},
    "metrics": [{"kind": "support_force", "body": "box", "from": 0.001}, {"kind": "energy"}],
}


# Kinematic paths, load schedules and restitution (one key each, so that any
# time a mutation gives a key stays in order).
DRIVEN = {
    "time": 0.002,
    "friction": {"default": 0.5},
    "restitution": {"default": 0.5, "threshold": 0.1, "pairs": [{"a": "box", "b": "floor", "e": 0.3}]},
    "bodies": [
        {"name": "floor", "static": True, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
        {"name": "belt", "shape": {"shape": "box", "size": [4, 1, 0.1]}, "pose": {"p": [0, 0, -0.05]},
         "kinematic": {"velocity": [1, 0, 0], "angular_velocity": [0, 0, 0]}},
        {"name": "arm", "shape": {"shape": "sphere", "radius": 0.05},
         "kinematic": {"keyframes": [{"t": 0, "p": [0, 0, 1], "q": [1, 0, 0, 0]}]}},
        {"name": "box", "shape": {"shape": "box", "size": [0.2, 0.2, 0.2]}, "density": 500,
         "pose": {"p": [0, 0, 0.1]}, "force": [{"t": 0, "f": [1, 0, 0]}], "torque": [{"t": 0, "tau": [0, 0, 1]}]},
    ],
}


def test_scene_files_are_accepted_exactly_when_the_schema_accepts_them():
    cases = corpus([SCENE, DRIVEN])
    accepted = [_file_accepted(["sim", "{}"], d) for _, d in cases]
    assert accepted[:2] == [True, True]
    assert _agree("scene.schema.json", cases, accepted) > 200


def test_programs_and_environments_have_schemas_of_their_own():
    checked = 0
    for ref, good, bad in [
        ("program.schema.json", {"to": READY, "speed": 0.5}, {"to": READY, "sped": 0.5}),
        ("program.schema.json", {"waypoints": [{"t": 0, "q": READY}]}, {"waypoints": []}),
        ("environment.schema.json", [TABLE, SCAN], [dict(TABLE, enviroment=1)]),
        ("environment.schema.json#/$defs/attached_list", [TOOL], [dict(TOOL, link=None)]),
    ]:
        assert accepts(ref, good), (ref, good)
        assert not accepts(ref, bad), (ref, bad)
        checked += 1
    assert checked == 4
