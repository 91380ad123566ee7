"""Fixed-step time keeping with a whole-tick accumulator.

Rendering frames have any length; the simulation advances in whole ticks of exactly
1/`tick_hz` s. Frame time is accumulated as an exact rational number of ticks, so 60 frames
of 1/60 s give exactly 240 ticks at 240 Hz, and an hour of frames never drifts. A single
frame is capped at `max_frame_s` (0.25 s) so a long pause is never integrated in one go.
"""

from __future__ import annotations

import math
from fractions import Fraction


class FixedStepClock:
    """Turns frame durations into a whole number of fixed ticks.

    Args:
        tick_hz: fixed ticks per second (240 → 1/240 s sub-steps).
        max_frame_s: longest frame integrated, in seconds; longer frames are clipped.
    """

    def __init__(self, tick_hz: int = 240, max_frame_s: float = 0.25) -> None:
        if tick_hz <= 0:
            raise ValueError(f"tick_hz must be > 0, got {tick_hz}")
        self.tick_hz = tick_hz
        self.tick_s = 1.0 / tick_hz
        self.max_frame_s = max_frame_s
        self.ticks = 0  # whole ticks simulated since start
        # ticks owed but not yet run, in [0, 1), as the exact fraction _num / _den: plain
        # integers while frames keep the same length, re-expressed when the length changes
        self._num = 0
        self._den = 1
        self._step_num = 0  # one frame of _last_dt, in ticks, over _den
        self._last_dt: float | None = None

    @property
    def time_s(self) -> float:
        """Simulated time in seconds (exact multiple of the tick)."""
        return self.ticks / self.tick_hz

    @property
    def alpha(self) -> float:
        """Fraction of a tick accumulated but not simulated: the render interpolation weight."""
        return self._num / self._den

    def advance(self, frame_dt_s: float) -> int:
        """Accumulate one frame and return how many whole ticks to run now."""
        if not math.isfinite(frame_dt_s) or frame_dt_s < 0.0:
            raise ValueError(f"frame dt must be a finite number ≥ 0 s, got {frame_dt_s!r}")
        dt = min(frame_dt_s, self.max_frame_s)
        if dt != self._last_dt:
            self._last_dt = dt
            step = Fraction(dt).limit_denominator(1_000_000) * self.tick_hz
            pending = Fraction(self._num, self._den)
            self._den = step.denominator * pending.denominator // math.gcd(step.denominator, pending.denominator)
            self._num = pending.numerator * (self._den // pending.denominator)
            self._step_num = step.numerator * (self._den // step.denominator)
        self._num += self._step_num
        n, self._num = divmod(self._num, self._den)
        self.ticks += n
        return n

    def reset(self) -> None:
        self.ticks = 0
        self._num = 0
