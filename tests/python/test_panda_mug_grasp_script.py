# SPDX-License-Identifier: BSD-3-Clause
"""examples/panda_mug_grasp.json is what scripts/panda_mug_grasp.py writes:
the waypoints in the scene are the script's inverse kinematics, and its
hand poses reach the targets (the script refuses an unconverged solve)."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def test_scene_is_the_scripts_output():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "panda_mug_grasp.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
