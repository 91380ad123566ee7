"""GAMEPLAY stage: record the trail — real positions about every 0.2 s while moving, at most
1 200 points (the oldest dropped). Only Restart clears it.

The spacing is in game time: a point is due 0.2 s after the last one (the remainder carried,
so the average is exact at any frame length) and taken on the first frame the drone moves
once it is due; standing still records nothing, and the drone starting off again records at
once where it left from."""

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
            # game time since the last point first: eleven frames in twelve it is all there is to read
            since = trail.since_last_s + dt
            if since < trail.interval_s - 1e-9:
                trail.since_last_s = since
                continue
            state = body.state  # plain floats: numpy scalars would cost several times more
            vx, vy, vz = state.item(VELOCITY), state.item(VELOCITY + 1), state.item(VELOCITY + 2)
            if vx * vx + vy * vy + vz * vz < MOVING_SPEED_M_S * MOVING_SPEED_M_S:
                trail.since_last_s = trail.interval_s  # standing still: the first moving frame records
                continue
            since -= trail.interval_s
            trail.since_last_s = since if since <= trail.interval_s else 0.0  # after a long frame, no burst
            trail.points.append(tuple(body.position))


class TrailPlugin:
    name = "trail"

    def build(self, app: App) -> None:
        app.add_system(RecordTrail(), Stage.GAMEPLAY)
