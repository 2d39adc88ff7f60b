#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots of the Polyhedral Exact Geometry benchmarks, PEG beside Stewart–Trinkle.

Runs `proxima sim` on examples/peg_sawtooth.json and examples/peg_hills.json
with both formulations (and the sawtooth at Δt = 1e-4 … 1e-1), reads the
trajectory CSVs and writes SVG line plots (no plotting library needed) of
what the paper's Figs. 4–11 show: trajectories over the obstacles' true
surface, problem size per step (contacts + PEG aux rows), solve time per
step and energy.

    scripts/peg_plots.py [--proxima build/bin/proxima] [--out docs/images]
"""
import argparse
import csv
import math
import os
import subprocess
import tempfile

COLOURS = {"peg": "#1f77b4", "stewart_trinkle": "#d62728"}


def sawtooth_surface():
    p = [(-0.5, 0.0)]
    for k in range(1, 9):
        p += [(-0.5 + k, 0.1), (-0.5 + k, 0.0)]
    return p


def hills_surface():
    w, h = 1.0, 0.25
    r = (w * w / 4 + h * h) / (2 * h)
    a = math.asin(w / 2 / r)
    return [(-1.0 + j + r * math.sin(-a + 2 * a * i / 10), h - r + r * math.cos(-a + 2 * a * i / 10))
            for j in range(8) for i in range(11)]


def run(proxima, scene, formulation, dt, solver, folder):
    path = os.path.join(folder, "%s_%s_%g_%s.csv" % (os.path.basename(scene), formulation, dt or 0, solver))
    cmd = [proxima, "sim", scene, "--formulation", formulation, "--solver", solver, "--out", path]
    if dt:
        cmd += ["--dt", str(dt)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        return list(csv.DictReader(f))


def svg(series, title, xlabel, ylabel, box=None, width=640, height=320, dots=False):
    """series: list of (label, colour, [(x, y)], dashed)."""
    pts = [p for _, _, s, _ in series for p in s if math.isfinite(p[0]) and math.isfinite(p[1])]
    x0, x1, y0, y1 = box or (min(p[0] for p in pts), max(p[0] for p in pts), min(p[1] for p in pts),
                             max(p[1] for p in pts))
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1
    left, right, top, bottom = 60, 10, 30, 40
    sx = lambda x: left + (x - x0) / (x1 - x0) * (width - left - right)
    sy = lambda y: height - bottom - (y - y0) / (y1 - y0) * (height - top - bottom)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
           % (width, height), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13">%s</text>' % (left, title),
           '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
           % (left, top, width - left - right, height - top - bottom),
           '<text x="%d" y="%d">%.3g</text><text x="%d" y="%d" text-anchor="end">%.3g</text>'
           % (left, height - bottom + 14, x0, width - right, height - bottom + 14, x1),
           '<text x="%d" y="%d" text-anchor="end">%.3g</text><text x="%d" y="%d" text-anchor="end">%.3g</text>'
           % (left - 4, height - bottom, y0, left - 4, top + 10, y1),
           '<text x="%d" y="%d" text-anchor="middle">%s</text>' % ((left + width) // 2, height - 8, xlabel),
           '<text x="12" y="%d" transform="rotate(-90 12 %d)" text-anchor="middle">%s</text>'
           % (height // 2, height // 2, ylabel)]
    ly = top + 14
    for label, colour, s, dashed in series:
        # Points beyond the frame are drawn on its edge (an energy spike
        # shows as a line along the top), those left or right of it dropped.
        inside = [(sx(x), sy(min(max(y, y0), y1))) for x, y in s if x0 <= x <= x1 and math.isfinite(y)]
        cap = 1500
        if len(inside) > cap:  # thin long series
            inside = inside[::len(inside) // cap + 1]
        if dots:
            out += ['<circle cx="%.1f" cy="%.1f" r="1.5" fill="%s"/>' % (x, y, colour) for x, y in inside]
        elif inside:
            out.append('<polyline fill="none" stroke="%s" stroke-width="1.2"%s points="%s"/>'
                       % (colour, ' stroke-dasharray="4 3"' if dashed else "",
                          " ".join("%.1f,%.1f" % p for p in inside)))
        if label:
            out.append('<text x="%d" y="%d" fill="%s" text-anchor="end">%s</text>' % (width - right - 6, ly, colour, label))
            ly += 14
    out.append("</svg>")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--proxima", default="build/bin/proxima")
    ap.add_argument("--examples", default="examples")
    ap.add_argument("--out", default="docs/images")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, surface, box in (("sawtooth", sawtooth_surface(), (-0.5, 4.0, -0.3, 1.2)),
                                   ("hills", hills_surface(), (-1.5, 3.0, -0.2, 2.2))):
            scene = os.path.join(a.examples, "peg_%s.json" % name)
            runs = {f: run(a.proxima, scene, f, None, "lemke", tmp) for f in ("peg", "stewart_trinkle")}
            ground = [("true surface", "#000", surface, False)]
            traj = [(f, COLOURS[f], [(float(r["particle.x"]), float(r["particle.y"])) for r in rows], False)
                    for f, rows in runs.items()]
            files = {
                "trajectory": svg(ground + traj, "%s: trajectories (Lemke)" % name, "x, m", "y, m", box),
                "problem_size": svg([(f, COLOURS[f], [(float(r["time"]), int(r["contacts"]) + int(r["aux"]))
                                                      for r in rows], False) for f, rows in runs.items()],
                                    "%s: problem size per step (contacts + aux rows)" % name, "t, s", "rows"),
                "solve_time": svg([(f, COLOURS[f], [(float(r["time"]), float(r["ms_solve"])) for r in rows], False)
                                   for f, rows in runs.items()], "%s: solve time per step" % name, "t, s", "ms",
                                  dots=True),
                "energy": svg([(f, COLOURS[f], [(float(r["time"]), float(r["energy"])) for r in rows], False)
                               for f, rows in runs.items()],
                              "%s: energy (kinetic + gravity + force potential)" % name, "t, s", "J",
                              (0.0, float(runs["peg"][-1]["time"]), -20.0, 150.0)),
            }
            for what, text in files.items():
                with open(os.path.join(a.out, "peg_%s_%s.svg" % (name, what)), "w") as f:
                    f.write(text)
        # The sawtooth at four step sizes, each formulation on its own plot.
        surface = sawtooth_surface()
        for f in ("peg", "stewart_trinkle"):
            series = [("true surface", "#000", surface, False)]
            for dt, colour in ((1e-4, "#1f77b4"), (1e-3, "#2ca02c"), (1e-2, "#ff7f0e"), (1e-1, "#9467bd")):
                rows = run(a.proxima, os.path.join(a.examples, "peg_sawtooth.json"), f, dt, "lemke", tmp)
                series.append(("dt %g" % dt, colour, [(float(r["particle.x"]), float(r["particle.y"])) for r in rows],
                               dt == 1e-1))
            with open(os.path.join(a.out, "peg_sawtooth_steps_%s.svg" % f), "w") as out:
                out.write(svg(series, "sawtooth, %s, Δt = 1e-4 … 1e-1 (Lemke)" % f, "x, m", "y, m",
                              (-0.5, 4.0, -0.3, 1.2)))


if __name__ == "__main__":
    main()
