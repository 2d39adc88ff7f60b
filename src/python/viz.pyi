# SPDX-License-Identifier: BSD-3-Clause
# Type stubs (PEP 484) of the submodule `proxima.viz` (src/python/viz.cpp):
# the 3-D replay page written from Python, and Meshcat. proxima.pyi imports
# it; tests/python/test_stubs.py checks both against the module.
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy.typing as npt
from typing_extensions import TypeAlias

import proxima

BodyShape: TypeAlias = Union[proxima.ConvexShape, proxima.TriangleMesh, proxima.Bvh]
"""What a body is drawn as: a convex shape, a TriangleMesh or a Bvh."""
PosesArg: TypeAlias = Union[Mapping[str, proxima.PoseLike], Sequence[proxima.PoseLike], npt.NDArray[Any], None]
"""A frame's poses: {body name: pose} or one per moving body; a None pose hides the body."""
ContactRow: TypeAlias = Union[Sequence[float], npt.NDArray[Any], Mapping[str, Any]]
"""[px, py, pz, nx, ny, nz, depth], or a dict with 'point', 'normal', 'depth' (as World.contacts())."""
ContactsArg: TypeAlias = Union[proxima.ContactResult, Sequence[ContactRow], npt.NDArray[Any], None]
SegmentsArg: TypeAlias = Union[proxima.DistanceResult, Sequence[Sequence[float]], Sequence[Sequence[Sequence[float]]],
                               npt.NDArray[Any], None]
"""A DistanceResult (its witness points), or segments as 6 numbers or two points."""
QueryResult: TypeAlias = Union[proxima.CollideResult, proxima.DistanceResult, proxima.ContactResult, None]
PageLike: TypeAlias = Union["Page", "Recorder", "RobotPage", Dict[str, Any], str, bytes]

class Page:
    """A replay page built in Python: bodies, then frames in time order, then timelines."""
    def __init__(self, title: str = "Proxima replay") -> None: ...
    @property
    def title(self) -> str: ...
    @property
    def body_names(self) -> List[str]: ...
    @property
    def frame_count(self) -> int: ...
    def add_body(self, name: str, shape: BodyShape, pose: proxima.PoseLike = None, static: bool = False) -> int: ...
    def add_frame(
        self,
        time: float,
        poses: PosesArg = None,
        contacts: ContactsArg = None,
        segments: SegmentsArg = None,
        *,
        step: Optional[int] = None,
        label: Optional[str] = None,
        shapes: Optional[Sequence[BodyShape]] = None,
    ) -> int: ...
    def add_timeline(
        self,
        name: str,
        unit: str,
        values: Union[Sequence[float], npt.NDArray[Any]],
        labels: Optional[Sequence[str]] = None,
    ) -> None: ...
    def add_query(
        self,
        a: BodyShape,
        pose_a: proxima.PoseLike,
        b: BodyShape,
        pose_b: proxima.PoseLike,
        result: QueryResult = None,
        *,
        label: Optional[str] = None,
    ) -> int: ...
    def to_json(self) -> str: ...
    def write(self, path: proxima.StrPath) -> None: ...

class Recorder:
    """A World recorded for the replay page: frame 0 when made, one frame per capture()."""
    def __init__(self, world: proxima.World, title: Optional[str] = None, max_contacts: int = 256) -> None: ...
    def capture(self) -> None: ...
    @property
    def frame_count(self) -> int: ...
    def to_json(self, max_frames: int = 600) -> str: ...
    def write(self, path: proxima.StrPath, max_frames: int = 600) -> None: ...

class RobotPage:
    """The robot page of `proxima robot --html`: links coloured by clearance, one frame per add(q)."""
    def __init__(
        self, checker: proxima.SceneChecker, title: Optional[str] = None, near: float = 0.0, far: float = 0.2
    ) -> None: ...
    def add(
        self,
        q: proxima.JointsLike,
        base: proxima.PoseLike = None,
        *,
        label: Optional[str] = None,
        time: Optional[float] = None,
    ) -> Dict[str, float]: ...
    @property
    def frame_count(self) -> int: ...
    def to_json(self) -> str: ...
    def write(self, path: proxima.StrPath) -> None: ...

def to_meshcat(
    page: PageLike,
    vis: Any,
    frame: Optional[int] = 0,
    *,
    prefix: str = "proxima",
    contacts: bool = True,
    animate: bool = False,
    fps: Optional[float] = None,
    meshcat: Any = None,
) -> List[str]:
    """Sends the page's bodies (at frame `frame`) to the meshcat.Visualizer `vis`; returns their paths."""
