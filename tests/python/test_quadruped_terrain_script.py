# SPDX-License-Identifier: BSD-3-Clause
"""examples/quadruped_terrain.json, examples/robots/quadruped.urdf and
examples/meshes/noisy_terrain.obj are what scripts/quadruped_terrain.py
writes."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def test_files_are_the_scripts_output():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "quadruped_terrain.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
