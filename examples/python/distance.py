# SPDX-License-Identifier: BSD-3-Clause
"""Distance between two separated spheres, and the signed distance of a
sphere sinking into a box. Prints each answer with its normal (B to A).

Run with the module installed (`pip install .`) or PYTHONPATH=build/python."""
import proxima

# A: radius 0.3 at the origin; B: radius 0.2 at (0.6, 0.8, 0), 1 m away.
d = proxima.distance(proxima.Sphere(0.3), None, proxima.Sphere(0.2), proxima.Pose(p=(0.6, 0.8, 0.0)))
print("sphere-sphere distance %.12g normal %.12g %.12g %.12g status %s" % (d.distance, *d.normal, d.status))

# A: a 2 m cube at the origin; B: a ball of radius 0.5 whose centre is
# 0.25 m above the top face, so it sinks 0.25 m into the cube.
s = proxima.signed_distance(proxima.Box(2.0, 2.0, 2.0), None, proxima.Sphere(0.5), proxima.Pose(p=(0.0, 0.0, 1.25)))
print("box-sphere signed_distance %.12g normal %.12g %.12g %.12g status %s" % (s.distance, *s.normal, s.status))
