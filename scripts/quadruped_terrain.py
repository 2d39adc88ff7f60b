#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the legged-robot example: examples/robots/quadruped.urdf (a small
four-legged robot), examples/meshes/noisy_terrain.obj (a rough floor) and
examples/quadruped_terrain.json (the robot standing on it). Rerun after
changing the numbers below:

    .venv/bin/python scripts/quadruped_terrain.py            # writes the files
    .venv/bin/python scripts/quadruped_terrain.py --check    # exits 1 if one differs

The robot's trunk is its root link, and the scene gives it a floating base
("floating_base": true): the trunk is a free rigid body, its pose and twist
part of the robot's state (docs/dynamics.md, "Floating base"). Each leg has
a hip and a knee about y, a thigh and a shin, and a ball foot; only the
trunk and the feet collide. The legs are held in a crouch by PD targets;
the base has no motor.

The terrain is a 1.2 m square height field on a 2.5 cm grid whose heights
are uniform noise of ±5 mm (a fixed seed), written as a raw triangle mesh
that the scene gives a 2 mm boundary layer.
"""
import argparse
import json
import math
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
URDF = ROOT / "examples" / "robots" / "quadruped.urdf"
TERRAIN = ROOT / "examples" / "meshes" / "noisy_terrain.obj"
SCENE = ROOT / "examples" / "quadruped_terrain.json"

TRUNK = (0.40, 0.20, 0.08)  # box, m
TRUNK_MASS = 6.0
HIPS = [(0.15, 0.10), (0.15, -0.10), (-0.15, 0.10), (-0.15, -0.10)]  # (x, y) on the trunk
LEG = 0.15                 # thigh and shin length, m
THIGH_MASS, SHIN_MASS = 0.5, 0.3
LEG_RADIUS = 0.02          # of the thigh and shin rods (inertia only)
FOOT = 0.02                # foot ball radius
HIP, KNEE = 0.6, -1.2      # the crouch, rad
KP, KD = 150.0, 8.0
EFFORT = 40.0              # N m, hips and knees
SIZE, STEP, NOISE, SEED = 1.2, 0.025, 0.005, 20261130
LAYER = 0.002
DT, TIME = 0.001, 3.0


def fmt(x):
    return repr(float(x))


def box_inertia(m, a, b, c):
    return m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12


def rod_inertia(m, length, r):
    # A solid rod along z: about x and y (through its middle), about z.
    i = m * (3 * r * r + length * length) / 12
    return i, i, m * r * r / 2


def inertial(m, xyz, moments):
    ixx, iyy, izz = moments
    return (f'<inertial><origin xyz="{fmt(xyz[0])} {fmt(xyz[1])} {fmt(xyz[2])}"/><mass value="{fmt(m)}"/>'
            f'<inertia ixx="{fmt(ixx)}" iyy="{fmt(iyy)}" izz="{fmt(izz)}" ixy="0" ixz="0" iyz="0"/></inertial>')


def urdf_text():
    out = ['<?xml version="1.0"?>',
           '<!-- SPDX-License-Identifier: BSD-3-Clause -->',
           '<!-- A small quadruped written by scripts/quadruped_terrain.py; its root link, the trunk, is',
           '     meant for a floating base (examples/quadruped_terrain.json). -->',
           '<robot name="quadruped">']
    a, b, c = TRUNK
    out.append(f'  <link name="trunk">{inertial(TRUNK_MASS, (0, 0, 0), box_inertia(TRUNK_MASS, a, b, c))}'
               f'<collision><geometry><box size="{fmt(a)} {fmt(b)} {fmt(c)}"/></geometry></collision></link>')
    for k, (hx, hy) in enumerate(HIPS):
        leg = ["fl", "fr", "hl", "hr"][k]
        thigh = inertial(THIGH_MASS, (0, 0, -LEG / 2), rod_inertia(THIGH_MASS, LEG, LEG_RADIUS))
        shin = inertial(SHIN_MASS, (0, 0, -LEG / 2), rod_inertia(SHIN_MASS, LEG, LEG_RADIUS))
        out.append(f'  <link name="{leg}_thigh">{thigh}</link>')
        out.append(f'  <link name="{leg}_shin">{shin}<collision><origin xyz="0 0 {fmt(-LEG)}"/>'
                   f'<geometry><sphere radius="{fmt(FOOT)}"/></geometry></collision></link>')
        out.append(f'  <joint name="{leg}_hip" type="revolute"><parent link="trunk"/><child link="{leg}_thigh"/>'
                   f'<origin xyz="{fmt(hx)} {fmt(hy)} {fmt(-c / 2)}"/><axis xyz="0 1 0"/>'
                   f'<limit lower="-1.5" upper="1.5" effort="{fmt(EFFORT)}" velocity="10"/></joint>')
        out.append(f'  <joint name="{leg}_knee" type="revolute"><parent link="{leg}_thigh"/>'
                   f'<child link="{leg}_shin"/><origin xyz="0 0 {fmt(-LEG)}"/><axis xyz="0 1 0"/>'
                   f'<limit lower="-2.5" upper="0" effort="{fmt(EFFORT)}" velocity="10"/></joint>')
    out.append('</robot>')
    return "\n".join(out) + "\n"


def terrain_text():
    rng = random.Random(SEED)
    n = int(round(SIZE / STEP))
    lines = ["# A rough floor written by scripts/quadruped_terrain.py: a height field of uniform noise."]
    for i in range(n + 1):
        for j in range(n + 1):
            x, y = -SIZE / 2 + i * STEP, -SIZE / 2 + j * STEP
            lines.append(f"v {x:.6f} {y:.6f} {rng.uniform(-NOISE, NOISE):.6f}")
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j + 1  # OBJ counts from 1
            b, c, d = a + n + 1, a + 1, a + n + 2
            lines.append(f"f {a} {b} {d}")
            lines.append(f"f {a} {d} {c}")
    return "\n".join(lines) + "\n"


def scene_text():
    # Standing height: the trunk's underside over the hips, the legs in the
    # crouch, the ball on the floor (heights within ±NOISE), 5 mm to fall.
    leg_height = LEG * math.cos(HIP) + LEG * math.cos(HIP + KNEE)
    z0 = TRUNK[2] / 2 + leg_height + FOOT + NOISE + 0.005
    q0 = [HIP, KNEE] * 4
    scene = {
        "name": "quadruped_terrain",
        "dt": DT,
        "time": TIME,
        "solver": {"kind": "lemke", "friction_directions": 4},
        "friction": {"default": 1.0},
        "bodies": [{"name": "terrain", "static": True,
                    "shape": {"shape": "mesh", "file": "meshes/noisy_terrain.obj", "margin": LAYER}}],
        "robots": [{"urdf": "robots/quadruped.urdf", "base": {"p": [0.0, 0.0, z0]}, "floating_base": True,
                    "q": q0, "kp": KP, "kd": KD, "targets": [{"t": 0.0, "q": q0}]}],
    }
    return json.dumps(scene, indent=1) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a written file differs")
    args = parser.parse_args()
    files = [(URDF, urdf_text()), (TERRAIN, terrain_text()), (SCENE, scene_text())]
    differ = [p for p, text in files if not p.exists() or p.read_text() != text]
    if args.check:
        for p in differ:
            print(f"{p.relative_to(ROOT)} differs from what the script writes", file=sys.stderr)
        return 1 if differ else 0
    for p, text in files:
        p.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
