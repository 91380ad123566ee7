"""Fixed-step time keeping with a whole-tick accumulator.

Rendering frames have any length; the simulation advances in whole ticks of exactly
1/`tick_hz` s. Owed time is kept as an integer count of *grains*, a fixed fraction of a tick
(1/`GRAINS_PER_TICK`), so it is exact, cheap and bounded:

- every common frame rate divides the grain exactly (1/24 … 1/1000 s, 1/144 s, 1/165 s, …:
  `GRAINS_PER_TICK` is a multiple of 1..16 and of the usual monitor rates), so 60 frames of
  1/60 s give exactly 240 ticks at 240 Hz and an hour of such frames never drifts;
- a measured frame length (the window's, which always differs from the last) is rounded to
  the nearest grain, about 6 ps at 240 Hz: an hour of jittered frames is off by well under a
  microsecond, and the same frames in the same order always give the same ticks;
- the numbers never grow: the accumulator stays below one tick's grains, whatever the number
  of frames or of distinct frame lengths, so a frame costs the same after an hour as at start.

A single frame is capped at `max_frame_s` (0.25 s) so a long pause is never integrated in
one go.
"""

from __future__ import annotations

import math

# lcm(1..16) × 1 000 × 11: whole frames of 1/f s are whole grains for f in 1..16, for
# millisecond frames and for every usual display rate (24 … 60, 75, 90, 120, 144, 165, 240, 360)
GRAINS_PER_TICK = 720_720 * 1_000 * 11


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
        self._owed_grains = 0  # time owed but not yet run, in [0, GRAINS_PER_TICK)
        self._grains_per_s = tick_hz * GRAINS_PER_TICK
        self._last_dt: float | None = None  # the last frame's length as given
        self.frame_s = 0.0  # the last frame's length as integrated (clipped to max_frame_s), s
        self._last_grains = 0

    @property
    def time_s(self) -> float:
        """Simulated time in seconds (exact multiple of the tick)."""
        return self.ticks / self.tick_hz

    @property
    def alpha(self) -> float:
        """Fraction of a tick accumulated but not simulated: the render interpolation weight."""
        return self._owed_grains / GRAINS_PER_TICK

    def advance(self, frame_dt_s: float) -> int:
        """Accumulate one frame and return how many whole ticks to run now."""
        if frame_dt_s != self._last_dt:  # fixed frame lengths (tests, scripts) skip the checks and the rounding
            if not math.isfinite(frame_dt_s) or frame_dt_s < 0.0:  # (NaN is never equal: always checked)
                raise ValueError(f"frame dt must be a finite number ≥ 0 s, got {frame_dt_s!r}")
            self._last_dt = frame_dt_s
            self.frame_s = min(frame_dt_s, self.max_frame_s)
            self._last_grains = round(self.frame_s * self._grains_per_s)
        n, self._owed_grains = divmod(self._owed_grains + self._last_grains, GRAINS_PER_TICK)
        self.ticks += n
        return n

    def reset(self) -> None:
        self.ticks = 0
        self._owed_grains = 0
