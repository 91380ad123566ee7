"""GAMEPLAY stage: record the trail — real positions about every 0.2 s while moving, at most
1 200 points (the oldest dropped). Only Restart clears it."""

from __future__ import annotations

import esper

from components.flight import RigidBody
from components.layout import VELOCITY
from components.world import Trail
from engine.app import App
from engine.stages import Stage

MOVING_SPEED_M_S = 0.05  # below this the drone is standing still: nothing is recorded


class RecordTrail(esper.Processor):
    def process(self, dt: float) -> None:
        for _, (body, trail) in esper.get_components(RigidBody, Trail):
            state = body.state  # plain floats: numpy scalars would cost several times more
            vx, vy, vz = state.item(VELOCITY), state.item(VELOCITY + 1), state.item(VELOCITY + 2)
            if vx * vx + vy * vy + vz * vz < MOVING_SPEED_M_S * MOVING_SPEED_M_S:
                continue
            trail.since_last_s += dt
            if trail.since_last_s >= trail.interval_s - 1e-9:
                trail.since_last_s -= trail.interval_s
                if trail.since_last_s > trail.interval_s:  # after a long frame, do not burst
                    trail.since_last_s = 0.0
                trail.points.append(tuple(body.position))


class TrailPlugin:
    name = "trail"

    def build(self, app: App) -> None:
        app.add_system(RecordTrail(), Stage.GAMEPLAY)
