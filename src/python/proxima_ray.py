# SPDX-License-Identifier: BSD-3-Clause
"""Proxima's robot batch jobs on a Ray cluster: validity labels, distance
labels and trajectory checks for many configurations in many scenes.

    import proxima, proxima_ray
    with proxima_ray.Cluster(workers=2) as cluster:        # a local cluster; address="auto" joins one
        cluster.add_scene("table", "panda.urdf", "panda.srdf", environment=env)
        labels = cluster.check("table", qs)                 # Labels: collide (N,), status_code (N,)
        d = cluster.distances("table", qs)                  # (N,) robot.distances(q).distance
        t = cluster.check_trajectories("table", paths)      # one TrajectoryCheck per (M, dof) waypoint array

Each worker is a Ray actor that builds every scene once, from a description
put in Ray's object store once (the URDF and SRDF text, the environment's
shapes and meshes pickled); batches of rows then go to whichever worker is
free, and the answers come back in input order, the same as the calls made
in one process. docs/python.md ("A cluster through Ray") says how to point
it at a real cluster. Ray (PyPI `ray`) is imported only when a Cluster is
made: `import proxima_ray` works without it.
"""
import dataclasses
import os

import numpy as np

import proxima

__all__ = ["Cluster", "Labels", "TrajectoryCheck"]


@dataclasses.dataclass
class Labels:
    """check(): collide[i] when some self or environment pair of row i
    touches; status_code[i] indexes proxima.STATUS_NAMES."""
    collide: np.ndarray
    status_code: np.ndarray

    @property
    def status(self):
        return np.array(proxima.STATUS_NAMES)[self.status_code]


@dataclasses.dataclass
class TrajectoryCheck:
    """One trajectory through its waypoints, each segment checked
    continuously (SceneChecker.check_motion): the first segment that
    collides (its index and s along it), or collide False and segment -1."""
    status: str
    message: str
    collide: bool
    segment: int
    s: float


@dataclasses.dataclass(frozen=True)
class _Scene:
    urdf: str
    srdf: object
    base_dir: str
    environment: object
    options: dict


def _build(scene):
    return proxima.SceneChecker.from_xml(scene.urdf, scene.srdf, base_dir=scene.base_dir,
                                         environment=scene.environment, **scene.options)


def _check(checker, qs, threads, prefilter):
    r = checker.check_batch(qs, threads=threads, prefilter=prefilter)
    return np.asarray(r.collide), np.asarray(r.status_code)


def _distances(checker, qs):
    out = np.empty(len(qs))
    for i, q in enumerate(qs):
        out[i] = checker.distances(q).distance
    return out


def _trajectories(checker, paths, clearance):
    out = []
    for path in paths:
        answer = TrajectoryCheck("ok", "", False, -1, 1.0)
        for k in range(len(path) - 1):
            m = checker.check_motion(path[k], path[k + 1], clearance=clearance)
            if m.status != "ok" or m.collide:
                answer = TrajectoryCheck(m.status, m.message, bool(m.collide), k, float(m.s))
                break
        out.append(answer)
    return out


class _Worker:
    """One Ray actor: the scenes it was sent, built once each."""

    def __init__(self, threads):
        self.threads = threads
        self.scenes = {}

    def add_scene(self, name, scene):
        self.scenes[name] = _build(scene)

    def check(self, name, qs, prefilter):
        return _check(self.scenes[name], qs, self.threads, prefilter)

    def distances(self, name, qs):
        return _distances(self.scenes[name], qs)

    def check_trajectories(self, name, paths, clearance):
        return _trajectories(self.scenes[name], paths, clearance)


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise proxima.Error("%s: must be an integer >= 1, got %r" % (name, value))
    return value


def _read(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise proxima.Error("%s: cannot read %s: %s" % (what, path, e.strerror)) from None


class Cluster:
    """Ray actors that answer batches of robot queries.

    address: None starts a local Ray cluster on this machine (a head and
    `workers` worker processes, loopback only) and stops it on close();
    "auto" or "ray://host:10001" joins a running one, which close() leaves
    running. An already initialised Ray is used as it is.
    workers: how many actors share the batches (each takes one CPU).
    threads: threads per actor for check() (SceneChecker.check_batch).
    batch: rows per task (check, distances); trajectory_batch: trajectories
    per task (check_trajectories).
    init_options: more keyword arguments for ray.init.
    """

    def __init__(self, address=None, *, workers=2, threads=1, batch=1024, trajectory_batch=16, init_options=None):
        import ray  # only here: proxima_ray imports without Ray installed

        self._ray = ray
        _positive("workers", workers)
        _positive("threads", threads)
        self._batch = _positive("batch", batch)
        self._trajectory_batch = _positive("trajectory_batch", trajectory_batch)
        self._owns = False
        if not ray.is_initialized():
            options = dict(init_options or {})
            if address is None:
                options.setdefault("num_cpus", workers * threads)
                options.setdefault("include_dashboard", False)
                options.setdefault("_node_ip_address", "127.0.0.1")
            options.setdefault("log_to_driver", False)
            ray.init(address=address, **options)
            self._owns = True
        actor = ray.remote(num_cpus=threads)(_Worker)
        self._workers = [actor.remote(threads) for _ in range(workers)]
        self._scenes = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Ends the actors, and the local cluster if this Cluster started it."""
        for w in self._workers:
            self._ray.kill(w)
        self._workers = []
        if self._owns:
            self._ray.shutdown()
            self._owns = False

    def add_scene(self, name, urdf, srdf=None, *, environment=None, base_dir=None, **options):
        """A robot (URDF and SRDF files, read here) and its environment,
        sent to every worker once. Mesh files the URDF names are read by the
        workers from base_dir (default: the URDF's folder), which must hold
        them on every node (a shared folder, or Ray's runtime_env
        working_dir). options: SceneChecker's (mesh_mode, margin,
        link_margins, packages)."""
        if not isinstance(name, str) or not name:
            raise proxima.Error("name: must be a non-empty string, got %r" % (name,))
        if environment is not None and not isinstance(environment, proxima.Environment):
            raise proxima.Error("environment: expected a proxima.Environment, got %s" % type(environment).__name__)
        scene = _Scene(_read(urdf, "urdf"), _read(srdf, "srdf") if srdf is not None else None,
                       os.path.abspath(base_dir if base_dir is not None else os.path.dirname(os.path.abspath(urdf))),
                       environment, dict(options))
        # Built here first: a bad robot, scene or option is refused by the
        # caller's process, not by every worker.
        dof = _build(scene).dof
        ref = self._ray.put(scene)
        self._ray.get([w.add_scene.remote(name, ref) for w in self._workers])
        self._scenes[name] = dof

    def _rows(self, name, qs):
        if name not in self._scenes:
            raise proxima.Error("scene: no scene named %r (add_scene first; have %s)" % (name, sorted(self._scenes)))
        qs = np.asarray(qs, dtype=float)
        dof = self._scenes[name]
        if qs.ndim != 2 or qs.shape[1] != dof:
            raise proxima.Error("qs: expected an (N, %d) array of joint vectors, got shape %s" % (dof, qs.shape))
        return qs

    def _run(self, method, items, size, *args):
        """Tasks of `size` items each, two in flight per worker, streamed to
        whichever worker is free; the answers in input order."""
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        results = [None] * len(chunks)
        pending = {}
        free = [w for w in self._workers for _ in range(2)]
        nxt = 0
        while nxt < len(chunks) or pending:
            while free and nxt < len(chunks):
                w = free.pop()
                pending[getattr(w, method).remote(*args[:1], chunks[nxt], *args[1:])] = (nxt, w)
                nxt += 1
            done, _ = self._ray.wait(list(pending), num_returns=1)
            k, w = pending.pop(done[0])
            results[k] = self._ray.get(done[0])
            free.append(w)
        return results

    def check(self, name, qs, *, prefilter=False):
        """SceneChecker.check_batch(qs, prefilter=prefilter) of scene `name`
        -> Labels (the sphere prefilter never changes an answer)."""
        if not isinstance(prefilter, bool):
            raise proxima.Error("prefilter: must be True or False, got %r" % (prefilter,))
        qs = self._rows(name, qs)
        parts = self._run("check", qs, self._batch, name, prefilter)
        if not parts:
            return Labels(np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int8))
        return Labels(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))

    def distances(self, name, qs):
        """SceneChecker.distances(q).distance of each row -> (N,) array."""
        qs = self._rows(name, qs)
        parts = self._run("distances", qs, self._batch, name)
        return np.concatenate(parts) if parts else np.zeros(0)

    def check_trajectories(self, name, paths, *, clearance=0.0):
        """Each (M, dof) waypoint array checked segment by segment with
        check_motion(clearance) -> list of TrajectoryCheck."""
        paths = [self._rows(name, p) for p in paths]
        if not (isinstance(clearance, (int, float)) and np.isfinite(clearance) and clearance >= 0):
            raise proxima.Error("clearance: must be a finite number >= 0, got %r" % (clearance,))
        parts = self._run("check_trajectories", paths, self._trajectory_batch, name, float(clearance))
        return [t for part in parts for t in part]
