# SPDX-License-Identifier: BSD-3-Clause
"""The hand-written type stubs (proxima.pyi beside the module, and viz.pyi of
the submodule proxima.viz in the stub package) against the module itself:
the same names both ways, for the module, its submodule and every class; the
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
import proxima.viz

STUB = os.path.join(os.path.dirname(os.path.abspath(proxima.__file__)), "proxima.pyi")


def _viz_stub():
    """viz.pyi in the stub package: build/python/proxima/ in the build tree,
    proxima-stubs/ where the module is installed."""
    folder = os.path.dirname(STUB)
    for package in ("proxima", "proxima-stubs"):
        path = os.path.join(folder, package, "viz.pyi")
        if os.path.isfile(path):
            return path
    return os.path.join(folder, "proxima", "viz.pyi")


VIZ_STUB = _viz_stub()


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
            elif isinstance(node, ast.ImportFrom) and node.level == 1:
                # `from . import viz as viz`: a submodule the stub re-exports.
                for alias in node.names:
                    if alias.asname == alias.name:
                        self.names[alias.name] = "module"
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


def _python_signature(function):
    """The parameter list of a function written in Python, as _parameters gives it."""
    out = []
    for p in inspect.signature(function).parameters.values():
        name = UNNAMED if p.kind == p.POSITIONAL_ONLY else p.name
        out.append((name, p.kind == p.KEYWORD_ONLY, p.default is not p.empty))
    return out


def _public_members(cls):
    """Public names of a module class, without those its non-proxima bases
    (object, pybind11's base, ValueError) bring."""
    inherited = set()
    for base in cls.__mro__[1:]:
        if not base.__module__.startswith("proxima"):
            inherited |= set(dir(base))
    return {n for n in dir(cls) if not n.startswith("_") and n not in inherited}


class ModuleStubChecks:
    """The checks of one module against its stub; the classes below name them."""
    module = proxima
    stub_path = STUB
    extra_public = {"__version__"}
    min_checked = 40  # signatures compared, so that a parser gone blind fails

    @classmethod
    def setUpClass(cls):
        cls.stub = Stub(cls.stub_path)

    def test_stub_lies_beside_the_module(self):
        self.assertTrue(os.path.isfile(self.stub_path), self.stub_path)

    def test_every_public_name_of_the_module_is_in_the_stub(self):
        public = {n for n in dir(self.module) if not n.startswith("_")} | self.extra_public
        self.assertEqual(sorted(public - set(self.stub.names)), [])

    def test_every_name_in_the_stub_is_in_the_module(self):
        self.assertEqual(sorted(n for n in self.stub.names if not hasattr(self.module, n)), [])
        # Aliases are the stub's own; one shadowing a module name would hide it.
        self.assertEqual(sorted(a for a in self.stub.aliases if hasattr(self.module, a)), [])

    def test_classes_functions_and_constants_are_declared_as_what_they_are(self):
        for name, kind in self.stub.names.items():
            value = getattr(self.module, name)
            with self.subTest(name=name):
                if kind == "module":
                    self.assertTrue(inspect.ismodule(value))
                elif kind == "class":
                    self.assertTrue(inspect.isclass(value))
                elif kind == "function":
                    self.assertTrue(callable(value) and not inspect.isclass(value))
                else:
                    self.assertFalse(callable(value))

    def test_every_class_member_both_ways(self):
        for cls_name, members in self.stub.members.items():
            cls = getattr(self.module, cls_name)
            with self.subTest(cls=cls_name):
                self.assertEqual(sorted(_public_members(cls) - set(members)), [], "missing from the stub")
                self.assertEqual(sorted(n for n in members if not hasattr(cls, n)), [], "not in the module")

    def test_members_have_the_stub_kind(self):
        for cls_name, members in self.stub.members.items():
            cls = getattr(self.module, cls_name)
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
            target = getattr(getattr(self.module, owner), name) if owner else getattr(self.module, name)
            runtime = _runtime_signatures(name, getattr(target, "__doc__", None))
            if not runtime and inspect.isfunction(target) and target.__module__.startswith("proxima"):
                runtime = [_python_signature(target)]  # written in Python (proxima.viz.to_meshcat)
            if not runtime:
                continue  # not a pybind11 function (inherited from Python)
            checked += 1
            with self.subTest(function=qualified):
                self.assertEqual(sorted(stub_overloads), sorted(runtime))
        self.assertGreater(checked, self.min_checked)


class VizStubsTest(ModuleStubChecks, unittest.TestCase):
    module = proxima.viz
    stub_path = VIZ_STUB
    extra_public = set()
    min_checked = 8


class StubsTest(ModuleStubChecks, unittest.TestCase):
    def test_the_submodule_is_importable_as_the_stub_package_declares(self):
        from proxima.viz import Page
        self.assertIs(Page, proxima.viz.Page)
        self.assertEqual(proxima.viz.__name__, "proxima.viz")

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
            page = proxima.viz.Page(title="two balls")
            first: int = page.add_body("ball", ball, pose)
            page.add_body("floor", box, None, static=True)
            frame: int = page.add_frame(0.0, {"ball": pose}, r, proxima.distance(ball, pose, box, None),
                                        label="t0")
            page.add_timeline("height", "m", [3.0])
            text: str = page.to_json()
            world = proxima.World()
            world.add_body("ball", ball, pose, density=1000.0)
            recorder = proxima.viz.Recorder(world)
            recorder.capture()
            from proxima.viz import to_meshcat
            paths: list[str] = to_meshcat(page, object(), frame=None, animate=False)
            """)
        bad = textwrap.dedent("""\
            import proxima

            proxima.Sphere("big")
            proxima.distance(proxima.Sphere(1.0), None, proxima.Sphere(1.0), None, method="fast")
            proxima.Bvh(proxima.TriangleMesh([[0.0, 0.0, 0.0]], [[0, 0, 0]])).nodes
            proxima.viz.Page(title=3)
            proxima.viz.Page().add_body("ball", "sphere")
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
            for line in (3, 4, 5, 6, 7):  # each misuse is its own error
                self.assertIn("use.py:%d:" % line, result.stdout)


if __name__ == "__main__":
    unittest.main()
