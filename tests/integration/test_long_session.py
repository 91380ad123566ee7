"""A long session as the window plays it: 20 000 frames of measured, jittered length.

The frame clock once grew its bookkeeping with every distinct frame length and the game fell
below 60 fps after about six minutes. Here the whole game (every stage, in the street, with a
mission and weather) runs five and a half minutes of jittered frames: a frame must cost the
same at the end as at the start, and the game time must be the frames' total.
"""

from __future__ import annotations

import random
import statistics
import time
from fractions import Fraction


def test_twenty_thousand_jittered_frames_keep_their_cost_and_their_time(make_sim):
    sim = make_sim("street", seed=3)
    sim.set_weather(preset="gusty")
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.select("mission")
    rng = random.Random(11)
    frames = [1 / 60 + rng.uniform(-0.0005, 0.0005) for _ in range(20_000)]
    costs = []
    perf = time.perf_counter_ns
    start = sim.time
    for dt in frames:
        t0 = perf()
        sim.step(dt)
        costs.append(perf() - t0)
    exact = float(sum(Fraction(dt) for dt in frames))
    assert abs(sim.time - start - exact) <= 1 / 240  # whole ticks: never a tick adrift
    first, last = statistics.median(costs[:2000]), statistics.median(costs[-2000:])
    assert last <= 3 * first, (first, last)  # the leaking clock cost 20× more by frame 12 000
