# SPDX-License-Identifier: BSD-3-Clause
"""The hand-written type stubs (proxima.pyi beside the module) against the
module itself: the same names both ways, for the module and every class; the
same kind (property, static method, method); the same parameters (names,
keyword-only, defaults) as pybind11's signatures; and a strict type check
by mypy (in the project's environment, scripts/requirements.txt) of code
using them."""
import ast
import inspect
import os
import re
import site
import subprocess
import sys
import tempfile
import textwrap
import unittest

import proxima

STUB = os.path.join(os.path.dirname(os.path.abspath(proxima.__file__)), "proxima.pyi")


def _decorators(node):
    return {d.id if isinstance(d, ast.Name) else d.attr for d in node.decorator_list}


def _is_alias(node):
    """`X: TypeAlias = ...`: a name for type checkers only, not in the module."""
    return isinstance(node, ast.AnnAssign) and (
        (isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias")
        or (isinstance(node.annotation, ast.Attribute) and node.annotation.attr == "TypeAlias"))


def _assigned_name(node):
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


class Stub:
    """What the stub declares: top-level names, and per class its members as
    {name: kind} ('property', 'setter', 'staticmethod', 'method',
    'attribute') and its functions' parameter lists."""

    def __init__(self, path):
        with open(path) as f:
            self.tree = ast.parse(f.read(), path)
        self.names = {}      # top-level name -> kind ('class', 'function', 'constant')
        self.aliases = set()
        self.members = {}    # class -> {name: set of kinds}
        self.signatures = {}  # "f" or "Class.f" -> [parameters per overload]
        for node in self.tree.body:
            if isinstance(node, ast.ClassDef):
                self.names[node.name] = "class"
                self.members[node.name] = {}
                for item in node.body:
                    self._member(node.name, item)
            elif isinstance(node, ast.FunctionDef):
                self.names[node.name] = "function"
                self.signatures.setdefault(node.name, []).append(_parameters(node.args, method=False))
            elif _is_alias(node):
                self.aliases.add(node.target.id)
            elif _assigned_name(node):
                self.names[_assigned_name(node)] = "constant"

    def _member(self, cls, item):
        kinds = self.members[cls]
        if isinstance(item, ast.FunctionDef):
            decorators = _decorators(item)
            if "property" in decorators:
                kinds.setdefault(item.name, set()).add("property")
            elif "setter" in decorators:
                kinds.setdefault(item.name, set()).add("setter")
            elif "staticmethod" in decorators:
                kinds.setdefault(item.name, set()).add("staticmethod")
                self.signatures.setdefault(cls + "." + item.name, []).append(_parameters(item.args, method=False))
            else:
                kinds.setdefault(item.name, set()).add("method")
                self.signatures.setdefault(cls + "." + item.name, []).append(_parameters(item.args, method=True))
        elif _assigned_name(item):
            kinds.setdefault(_assigned_name(item), set()).add("attribute")


# pybind11 calls the parameters it was given no name for arg0, arg1, ...;
# the stub declares them positional-only. Either way their name is not part
# of the signature.
UNNAMED = "<positional-only>"


def _parameters(args, method):
    """[(name, keyword_only, has_default)], without self."""
    positional = [(UNNAMED, a) for a in args.posonlyargs] + [(a.arg, a) for a in args.args]
    if method:
        positional = positional[1:]
    first_default = len(positional) - len(args.defaults)
    out = [(name, False, i >= first_default) for i, (name, a) in enumerate(positional)]
    out += [(a.arg, True, d is not None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return out


def _split_top_level(text):
    """Splits a parameter list at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


def _runtime_signatures(name, doc):
    """Parameter lists of each signature pybind11 wrote into `doc`."""
    found = []
    for m in re.finditer(r"^(?:\d+\. )?" + re.escape(name) + r"\((.*)\) ->", doc or "", re.M):
        keyword_only, params = False, []
        for p in _split_top_level(m.group(1)):
            if p == "*":
                keyword_only = True
                continue
            if p == "/":  # those before it are positional-only (pybind11 3 marks self so)
                params = [(UNNAMED, k, d) for _, k, d in params]
                continue
            pname = p.split(":")[0].split("=")[0].strip()
            if pname == "self":
                continue
            if re.fullmatch(r"arg\d+", pname):
                pname = UNNAMED
            params.append((pname, keyword_only, "=" in p))
        found.append(params)
    return found


def _public_members(cls):
    """Public names of a module class, without those its non-proxima bases
    (object, pybind11's base, ValueError) bring."""
    inherited = set()
    for base in cls.__mro__[1:]:
        if base.__module__ != "proxima":
            inherited |= set(dir(base))
    return {n for n in dir(cls) if not n.startswith("_") and n not in inherited}


class StubsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stub = Stub(STUB)

    def test_stub_lies_beside_the_module(self):
        self.assertTrue(os.path.isfile(STUB), STUB)

    def test_every_public_name_of_the_module_is_in_the_stub(self):
        public = {n for n in dir(proxima) if not n.startswith("_")} | {"__version__"}
        self.assertEqual(sorted(public - set(self.stub.names)), [])

    def test_every_name_in_the_stub_is_in_the_module(self):
        self.assertEqual(sorted(n for n in self.stub.names if not hasattr(proxima, n)), [])
        # Aliases are the stub's own; one shadowing a module name would hide it.
        self.assertEqual(sorted(a for a in self.stub.aliases if hasattr(proxima, a)), [])

    def test_classes_functions_and_constants_are_declared_as_what_they_are(self):
        for name, kind in self.stub.names.items():
            value = getattr(proxima, name)
            with self.subTest(name=name):
                if kind == "class":
                    self.assertTrue(inspect.isclass(value))
                elif kind == "function":
                    self.assertTrue(callable(value) and not inspect.isclass(value))
                else:
                    self.assertFalse(callable(value))

    def test_every_class_member_both_ways(self):
        for cls_name, members in self.stub.members.items():
            cls = getattr(proxima, cls_name)
            with self.subTest(cls=cls_name):
                self.assertEqual(sorted(_public_members(cls) - set(members)), [], "missing from the stub")
                self.assertEqual(sorted(n for n in members if not hasattr(cls, n)), [], "not in the module")

    def test_members_have_the_stub_kind(self):
        for cls_name, members in self.stub.members.items():
            cls = getattr(proxima, cls_name)
            for name, kinds in members.items():
                if not hasattr(cls, name):
                    continue  # reported by test_every_class_member_both_ways
                value = inspect.getattr_static(cls, name)
                with self.subTest(member=cls_name + "." + name):
                    if "property" in kinds:
                        self.assertIsInstance(value, property)
                        self.assertEqual("setter" in kinds, value.fset is not None, "setter")
                    elif "staticmethod" in kinds:
                        self.assertIsInstance(value, staticmethod)
                    elif "method" in kinds:
                        self.assertFalse(isinstance(value, (property, staticmethod)))
                        self.assertTrue(callable(getattr(cls, name)))

    def test_parameters_match_the_module_signatures(self):
        checked = 0
        for qualified, stub_overloads in self.stub.signatures.items():
            owner, _, name = qualified.rpartition(".")
            target = getattr(getattr(proxima, owner), name) if owner else getattr(proxima, name)
            runtime = _runtime_signatures(name, getattr(target, "__doc__", None))
            if not runtime:
                continue  # not a pybind11 function (inherited from Python)
            checked += 1
            with self.subTest(function=qualified):
                self.assertEqual(sorted(stub_overloads), sorted(runtime))
        self.assertGreater(checked, 40)

    def test_mypy_strict_accepts_typical_use_and_rejects_misuse(self):
        good = textwrap.dedent("""\
            import numpy as np
            import numpy.typing as npt
            import proxima

            box = proxima.Box(1.0, 2.0, 3.0, margin=0.01)
            ball = proxima.Sphere(0.5)
            pose = proxima.Pose(p=[0.0, 0.0, 3.0], q=(1.0, 0.0, 0.0, 0.0))
            d: float = proxima.distance(box, None, ball, pose).distance
            normal: npt.NDArray[np.float64] = proxima.distance(ball, np.eye(4), box, ([0, 0, 0], [1, 0, 0, 0])).normal
            r = proxima.contacts(box, pose * pose.inverse(), ball, None, margin=0.1, max_points=4)
            depths: npt.NDArray[np.float64] = r.depths
            mesh = proxima.TriangleMesh(np.zeros((3, 3)) + np.eye(3), [[0, 1, 2]])
            bvh = proxima.Bvh(mesh, volume="obb")
            t = proxima.tolerance(bvh, None, box, None, 0.1).distance
            maybe: float = t if t is not None else 0.0
            batch = proxima.distance_batch(box, np.tile(np.eye(4), (5, 1, 1)), ball, pose.matrix())
            ok: npt.NDArray[np.bool_] = batch.ok
            status: str = proxima.collide(box.to_shape(), None, ball, None, method="gjk_epa").status
            hit = proxima.time_of_impact(ball, None, pose, box, None, None, clearance=0.0)
            env = proxima.Environment()
            index: int = env.add("ball", ball, pose)
            try:
                proxima.Sphere(-1.0)
            except proxima.Error as e:
                message: str = str(e)
            """)
        bad = textwrap.dedent("""\
            import proxima

            proxima.Sphere("big")
            proxima.distance(proxima.Sphere(1.0), None, proxima.Sphere(1.0), None, method="fast")
            proxima.Bvh(proxima.TriangleMesh([[0.0, 0.0, 0.0]], [[0, 0, 0]])).nodes
            """)
        with tempfile.TemporaryDirectory() as tmp:
            def mypy(code):
                path = os.path.join(tmp, "use.py")
                with open(path, "w") as f:
                    f.write(code)
                # Installed, mypy finds the stub package in the interpreter's
                # site-packages (which it refuses on MYPYPATH); in the build
                # tree, proxima.pyi on MYPYPATH.
                stub_dir = os.path.realpath(os.path.dirname(STUB))
                installed = stub_dir in {os.path.realpath(p) for p in site.getsitepackages()}
                env = dict(os.environ) if installed else dict(os.environ, MYPYPATH=stub_dir)
                return subprocess.run(
                    [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", os.path.join(tmp, "cache"),
                     "--python-executable", sys.executable, path],
                    env=env, cwd=tmp, capture_output=True, text=True, timeout=300)

            result = mypy(good)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            result = mypy(bad)
            self.assertNotEqual(result.returncode, 0)
            for line in (3, 4, 5):  # each misuse is its own error
                self.assertIn("use.py:%d:" % line, result.stdout)


if __name__ == "__main__":
    unittest.main()
