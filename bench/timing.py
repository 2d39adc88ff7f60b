# SPDX-License-Identifier: BSD-3-Clause
"""The timer the Python benchmark scripts share (imported from their own
folder, which Python puts first on the path when it runs one of them)."""
import time


def best(fn, repeats=5, warm_up=False):
    """The shortest of `repeats` wall times of fn(), in seconds; with
    warm_up, one untimed call first."""
    if warm_up:
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)
