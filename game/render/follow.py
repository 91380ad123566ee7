"""The followed drone: the one the chase and first-person cameras, the map's centre, the HUD,
the trail, the landing aid and the route's distances are about.

`Followed` is a resource of the App the window adds (the headless Simulation has none): its
`entity` is None while the player's drone is followed — the default, and what it falls back
to when the followed drone leaves the world. `follow_next(app)` (the "next drone" key, F / the
right stick's click by default) steps through the drones in creation order, the player's
first, and wraps round. The pad always flies the player's drone, whichever is followed.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.simulation import drone_telemetry
from game.telemetry import Telemetry
from systems.scene import Player, drones


@dataclass
class Followed:
    """The drone the window follows (a resource); None: the player's."""

    entity: int | None = None


def followed_resource(app) -> Followed:
    return app.try_resource(Followed) or app.insert_resource(Followed())


def followed_entity(app, entities: list[int] | tuple[int, ...] | None = None) -> int:
    """The followed drone's entity: the one chosen while it is still in the world (`entities`,
    default every drone), else the player's."""
    chosen = followed_resource(app)
    player = app.resource(Player).entity
    if chosen.entity is None or chosen.entity == player:
        return player
    if chosen.entity not in (drones(app) if entities is None else entities):
        chosen.entity = None  # it left: back to the player's drone
        return player
    return chosen.entity


def follow_next(app, step: int = 1) -> int:
    """Follow the next drone in creation order (`step` −1: the previous one), wrapping round;
    its entity."""
    entities = drones(app)
    current = followed_entity(app, entities)
    index = entities.index(current) if current in entities else 0
    nxt = entities[(index + step) % len(entities)]
    follow(app, nxt)
    return nxt


def follow(app, entity: int | None) -> None:
    """Follow `entity` (None or the player's entity: the player's drone); ValueError if it is
    not a drone of this world."""
    player = app.resource(Player).entity
    if entity is not None and entity != player and entity not in drones(app):
        raise ValueError(f"follow(): {entity!r} is not a drone of this world")
    followed_resource(app).entity = None if entity in (None, player) else entity


def position_in_fleet(app, entity: int) -> tuple[int, int]:
    """(1-based position in creation order, number of drones): what the HUD says."""
    entities = drones(app)
    return (entities.index(entity) + 1 if entity in entities else 0), len(entities)


def telemetry_of(app, entity: int) -> Telemetry:
    """That drone's telemetry record (game/simulation.py's, the same fields as `sim.telemetry()`)."""
    return drone_telemetry(app, entity)
