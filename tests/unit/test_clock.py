"""The fixed-step clock: exact tick counts, bounded state, a frame's cost independent of play time.

The window hands the clock measured frame lengths, every one different from the last; tests
and scripts hand it fixed 1/60 s frames. Both must give whole ticks of 1/240 s with no drift,
and the clock's bookkeeping must not grow with the number of frames (it once did: its exact
fraction's denominator grew with every distinct frame length, and after six minutes of play
the clock alone cost more than a 60 fps frame).
"""

from __future__ import annotations

import random
import statistics
import time
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from engine.clock import FixedStepClock, GRAINS_PER_TICK


def jittered_frames(n: int, seed: int = 1, rate_hz: float = 60.0, jitter_s: float = 0.0005):
    rng = random.Random(seed)
    return [1.0 / rate_hz + rng.uniform(-jitter_s, jitter_s) for _ in range(n)]


def test_sixty_frames_of_a_sixtieth_give_exactly_240_ticks():
    clock = FixedStepClock(240)
    assert sum(clock.advance(1 / 60) for _ in range(60)) == 240
    assert clock.alpha == 0.0


def test_an_hour_at_common_display_rates_never_drifts():
    for rate in (30, 50, 60, 75, 90, 120, 144, 165, 240):
        clock = FixedStepClock(240)
        frames = 3600 * rate
        ticks = sum(clock.advance(1 / rate) for _ in range(frames))
        assert ticks == 3600 * 240, rate


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=0.25, allow_nan=False), min_size=1, max_size=400))
def test_ticks_follow_the_exact_total_within_rounding(frames):
    """Whole ticks = floor(total time × 240), to within a grain's rounding per frame."""
    clock = FixedStepClock(240)
    ticks = sum(clock.advance(dt) for dt in frames)
    exact = sum(Fraction(dt) for dt in frames) * 240
    slack = Fraction(len(frames), GRAINS_PER_TICK)  # at most half a grain per frame, each way
    assert exact - slack - 1 < ticks <= exact + slack
    assert 0.0 <= clock.alpha < 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=0.25, max_value=1e6, allow_nan=False), min_size=1, max_size=20))
def test_long_frames_are_clipped_to_a_quarter_second(frames):
    clock = FixedStepClock(240)
    assert sum(clock.advance(dt) for dt in frames) == 60 * len(frames)


def test_the_same_frames_give_the_same_ticks_and_alpha():
    frames = jittered_frames(5000, seed=7)
    a, b = FixedStepClock(240), FixedStepClock(240)
    assert [a.advance(dt) for dt in frames] == [b.advance(dt) for dt in frames]
    assert a.alpha == b.alpha


def test_jittered_frames_keep_the_state_bounded_for_an_hour():
    """An hour at 60 Hz ± 0.5 ms: the owed time stays below one tick, in a machine-sized integer."""
    clock = FixedStepClock(240)
    frames = jittered_frames(216_000, seed=3)
    total = 0
    for dt in frames:
        total += clock.advance(dt)
        assert 0 <= clock._owed_grains < GRAINS_PER_TICK  # noqa: SLF001 - the state that once grew
    exact = float(sum(Fraction(dt) for dt in frames) * 240)
    assert abs(total + clock.alpha - exact) < 1e-6  # under a nanosecond of game time adrift


def test_a_frame_costs_the_same_after_20000_jittered_frames():
    """Soak: the median cost of the last 2 000 frames is not above the first 2 000's (× 3 slack
    for a busy machine); the clock that leaked cost 20× more by frame 12 000."""
    clock = FixedStepClock(240)
    frames = jittered_frames(22_000, seed=5)
    costs = []
    perf = time.perf_counter_ns
    for dt in frames:
        t0 = perf()
        clock.advance(dt)
        costs.append(perf() - t0)
    first, last = statistics.median(costs[:2000]), statistics.median(costs[-2000:])
    assert last <= 3 * max(first, 200), (first, last)
