"""Flying a Simulation as a window does: frames of jittered length (1/144 … 1/50 s, seeded)."""

from __future__ import annotations

import random


class JitteredFrames:
    def __init__(self, sim, seed: int = 1) -> None:
        self.sim = sim
        self.rng = random.Random(seed)

    def frame(self):
        self.sim.step(self.rng.uniform(1 / 144, 1 / 50))
        return self.sim.telemetry()

    def record(self, seconds: float) -> list:
        """Every frame's telemetry for `seconds` of game time."""
        end = self.sim.time + seconds
        out = []
        while self.sim.time < end:
            out.append(self.frame())
        return out

    def run(self, seconds: float):
        """Fly `seconds` of game time; the last telemetry."""
        end = self.sim.time + seconds
        while self.sim.time < end:
            self.frame()
        return self.sim.telemetry()
