"""COLLISION stage: the drone's envelope against the level (`world.collision`), per tick.

A thin adapter: it hands each drone's tick segment to the pure `ContactSolver`, writes what
it found into the `Collider` (contact, normals, support, height above ground, this tick's
impact, damage) and emits IMPACT on impacts and TOUCHDOWN when resting contact begins. Contacts are resolved
here, after the dynamics sub-step — never by an altitude floor inside the dynamics.
"""

from __future__ import annotations

import esper

from components.flight import RigidBody
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from components.layout import POSITION, PREVIOUS_POSITION, QUATERNION, VELOCITY
from components import events
from world.collision import ContactParams, ContactSolver, impact_damage
from systems.scene import Player, SceneConfig
from world.level import ActiveLevel


class ResolveContacts(esper.Processor):
    def __init__(self, app: App, active: ActiveLevel, params: ContactParams | None = None) -> None:
        self.app = app
        self.active = active
        self.solver = ContactSolver(active.geometry, params)
        self._version = active.version
        self._just_placed: set[int] = set()  # drones placed since the last tick: resting there is no touchdown

    def on_placed(self, event: events.Reset | events.DroneSpawned) -> None:
        """A drone was put down (spawned, or Restart put it back): do not announce that as a touchdown."""
        entity = getattr(event, "entity", None)
        self._just_placed.add(self.app.resource(Player).entity if entity is None else entity)

    def process(self, dt: float) -> None:
        active = self.active
        solver = self.solver
        if active.version != self._version:
            solver.set_geometry(active.geometry)
            self._version = active.version
        params = solver.params
        if active.geometry.ground_z_m is None and not solver.has_solids:
            # the empty lab world: nothing to touch, nothing under the drone
            for _, col in esper.get_component(Collider):
                col.contact = col.resting = False
                col.contact_id = col.support_id = col.support_height_m = col.height_above_ground_m = None
                col.impact_speed_m_s = col.impact_damage = 0.0
            self._just_placed.clear()
            return
        for entity, (body, col) in esper.get_components(RigidBody, Collider):
            was_resting = col.resting
            # plain floats for the narrow phase: numpy scalars would cost ten times more
            values = body.state.tolist()
            position, velocity = values[POSITION:POSITION + 3], values[VELOCITY:VELOCITY + 3]
            quaternion, previous = values[QUATERNION:QUATERNION + 4], values[PREVIOUS_POSITION:PREVIOUS_POSITION + 3]
            solver.step(position, previous, velocity, quaternion, None, col.size_m, dt)
            contact = solver.contact
            if solver.resting:
                solver.settle(quaternion, body.angular_velocity, dt)
            if contact:  # only a contact moves or slows the body
                body.position[:] = position
                body.velocity[:] = velocity
            col.contact = contact
            col.resting = solver.resting
            col.contact_id = solver.contact_id
            if contact:
                col.contact_normal = solver.normal
            support = solver.support_z_m
            col.support_height_m = support
            col.support_id = solver.support_id
            col.height_above_ground_m = None if support is None else max(0.0, solver.bottom_z_m - support)
            speed = solver.impact_speed_m_s
            col.impact_speed_m_s = col.impact_damage = 0.0
            if speed > params.rest_speed_m_s:
                col.last_impact_speed_m_s = col.impact_speed_m_s = speed
                damage = min(1.0, col.damage + impact_damage(speed, params))
                col.impact_damage, col.damage = damage - col.damage, damage
                self.app.emit(events.Impact(speed, solver.normal, col.damage, entity))
            if solver.resting and not was_resting and entity not in self._just_placed:
                self.app.emit(events.Touchdown(support if support is not None else solver.bottom_z_m, entity))
        self._just_placed.clear()


class LevelPlugin:
    """The level's geometry (`ActiveLevel` resource) and the drone's contacts against it."""

    name = "level"

    def build(self, app: App) -> None:
        config = app.resource(SceneConfig)
        active = app.try_resource(ActiveLevel) or app.insert_resource(ActiveLevel.of(config.level))
        self.contacts = ResolveContacts(app, active)
        app.add_system(self.contacts, Stage.COLLISION)
        app.on(events.Reset, self.contacts.on_placed)
        app.on(events.DroneSpawned, self.contacts.on_placed)
