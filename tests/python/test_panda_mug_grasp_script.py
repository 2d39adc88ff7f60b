# SPDX-License-Identifier: BSD-3-Clause
"""examples/panda_mug_grasp.json is what scripts/panda_mug_grasp.py writes,
to the last rounded digit: the waypoints in the scene are the script's
inverse kinematics, and its hand poses reach the targets (the script refuses
an unconverged solve)."""
import copy
import importlib.util
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "panda_mug_grasp.py"


def test_scene_is_the_scripts_output():
    run = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_check_finds_a_moved_waypoint_and_a_renamed_key_but_not_a_last_digit():
    spec = importlib.util.spec_from_file_location("panda_mug_grasp", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shipped = json.loads((ROOT / "examples" / "panda_mug_grasp.json").read_text())
    assert script.first_difference(shipped, copy.deepcopy(shipped)) is None

    last_digit = copy.deepcopy(shipped)
    last_digit["robots"][0]["targets"][3]["q"][2] += 1e-6
    assert script.first_difference(shipped, last_digit) is None

    moved = copy.deepcopy(shipped)
    moved["robots"][0]["targets"][3]["q"][2] += 1e-5
    assert script.first_difference(shipped, moved) == (
        f"the scene.robots[0].targets[3].q[2]: {shipped['robots'][0]['targets'][3]['q'][2]} "
        f"against {moved['robots'][0]['targets'][3]['q'][2]}")

    renamed = copy.deepcopy(shipped)
    renamed["bodies"][1]["masss"] = renamed["bodies"][1].pop("mass")
    assert "keys" in script.first_difference(shipped, renamed)

    shorter = copy.deepcopy(shipped)
    shorter["robots"][0]["targets"].pop()
    assert "items against" in script.first_difference(shipped, shorter)

    flag = copy.deepcopy(shipped)
    flag["bodies"][0]["static"] = not flag["bodies"][0].get("static", False)
    assert script.first_difference(shipped, flag) is not None
