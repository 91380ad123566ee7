"""COLLISION stage: every drone's envelope against the level and against the other drones.

A thin adapter around the compiled contacts (world/collision.py): once per tick, for each block
of drones (components/fleet.py), `resolve_level_contacts` meets each drone's tick segment with
the level's solids (ground, swept boxes and cylinders, support sensing, settling) and
`resolve_drone_contacts` meets the drones with each other; both write each drone's results
into its row (the `Collider.results` view: contact, normal, support, resting…), correct
position and velocity in place, and say how many drones had an event. Only those are looked at
in Python: an impact adds damage and emits IMPACT (against the level or another drone), a
resting contact that begins emits TOUCHDOWN. Contacts are resolved here, after the dynamics
sub-step — never by an altitude floor inside the dynamics.
"""

from __future__ import annotations

import esper
import numpy as np

from components import events
from components.fleet import FleetStore
from components.layout import (
    DRONE_IMPACT_SPEED, DRONE_NORMAL, EVENTS, IMPACT_SPEED, MASS, NORMAL, SUPPORT_Z, BOTTOM_Z,
)
from components.world import Collider, FleetRow
from engine.app import App
from engine.stages import Stage
from world.collision import (
    DRONE_IMPACT_EVENT, IMPACT_EVENT, TOUCHDOWN_EVENT, ContactParams, impact_damage, pack_geometry,
    resolve_drone_contacts, resolve_level_contacts,
)
from systems.scene import Player, SceneConfig
from world.level import ActiveLevel


class ResolveContacts(esper.Processor):
    def __init__(self, app: App, active: ActiveLevel, params: ContactParams | None = None) -> None:
        self.app = app
        self.active = active
        self.params = params or ContactParams()
        self._packed_params = self.params.packed()
        self._version = None  # the ActiveLevel version the packed geometry is of
        self._geometry = None
        self._store: FleetStore | None = None
        self._columns = (0, 0, 0, 0)  # body, size, mass, results: where they start in a row
        self._store_version = -1
        self._entities: dict[tuple[int, int], int] = {}  # (block, row) → its drone
        self._struck: list[Collider] = []  # colliders whose impact fields name the last tick's impact
        self._just_placed: set[int] = set()  # drones placed since the last tick: resting there is no touchdown

    def on_placed(self, event: events.Reset | events.DroneSpawned) -> None:
        """A drone was put down (spawned, or Restart put it back): do not announce that as a touchdown."""
        entity = getattr(event, "entity", None)
        self._just_placed.add(self.app.resource(Player).entity if entity is None else entity)

    def process(self, dt: float) -> None:
        store = self.app.try_resource(FleetStore)
        if store is None:
            return
        self._refresh(store)
        if self._struck:
            for col in self._struck:  # "this tick's impact" was the last tick's
                col.impact_speed_m_s = col.impact_damage = 0.0
            self._struck.clear()
        if self._alone and not self._has_surfaces and self._cleared == store.version:
            self._just_placed.clear()
            return  # one drone in the empty world: nothing to meet, its results already clear
        body, size, mass, results = self._columns
        geometry, params = self._geometry, self._packed_params
        level = self._has_surfaces or self._cleared != store.version
        self._cleared = store.version  # the empty world: one pass after a change leaves every row clear
        for b, block in enumerate(store.blocks):
            rows = store.rows(b)
            n = rows.shape[0]
            noted = resolve_level_contacts(block, rows, body, size, results, geometry, params, dt) if level and n else 0
            if n > 1:
                noted += resolve_drone_contacts(block, rows, body, size, mass, results, params, dt)
            if noted:
                self._announce(b, block, rows, results)
        self._just_placed.clear()

    def _refresh(self, store: FleetStore) -> None:
        """Take in a new store, a new level geometry, drones come or gone."""
        if store is not self._store:
            self._store = store
            self._columns = (store.column("body"), store.column("size"), store.column("physics") + MASS,
                             store.column("contacts"))
            self._kernel_args = (*self._columns, self._geometry, self._packed_params)
        if self.active.version != self._version:
            self._new_geometry()
            self._kernel_args = (*self._columns, self._geometry, self._packed_params)
        if store.version != self._store_version:
            self._store_version = store.version
            self._entities = {(where.block, where.row): entity for entity, where in esper.get_component(FleetRow)}
            self._alone = len(self._entities) < 2

    def plan_whole_ticks(self, store: FleetStore) -> tuple[bool, bool, tuple] | None:
        """For ticks run in one compiled call (world/ticks.py): whether they must meet the
        level, whether the drones with each other, and the kernels' arguments after those
        (body, size, mass and results columns, geometry, parameters) — or None when the next
        tick needs this system itself (the last tick's impact to forget, a drone just placed,
        the empty world's results to clear)."""
        self._refresh(store)
        if self._struck or self._just_placed or (not self._has_surfaces and self._cleared != store.version):
            return None
        return self._has_surfaces, not self._alone, self._kernel_args

    def announce(self, b: int, block: np.ndarray, rows: np.ndarray) -> None:
        """The events of the tick just resolved, by a compiled run of whole ticks."""
        self._announce(b, block, rows, self._columns[3])

    _alone = False  # fewer than two drones: no pairs to meet
    _has_surfaces = True  # the level has a ground or a solid (else there is nothing to meet)
    _cleared = -1  # the store version the empty world's results were last cleared at

    def _new_geometry(self) -> None:
        """The level changed (start, hot reload): pack its solids; colliders name them anew."""
        self._version = self.active.version
        geometry = self.active.geometry
        self._geometry = pack_geometry(geometry)
        self._has_surfaces = geometry.ground_z_m is not None or bool(geometry.boxes or geometry.cylinders)
        self._cleared = -1
        ids = geometry.solid_ids
        for _, col in esper.get_component(Collider):
            col.solid_ids = ids

    def _announce(self, b: int, block: np.ndarray, rows: np.ndarray, results: int) -> None:
        """The drones with an event this tick: damage, IMPACT, TOUCHDOWN."""
        params = self.params
        for r in rows[block[rows, results + EVENTS] != 0.0].tolist():
            entity = self._entities[(b, r)]
            col = esper.component_for_entity(entity, Collider)
            out = block[r, results:]
            flags = int(out[EVENTS])
            if flags & IMPACT_EVENT:
                self._impact(entity, col, float(out[IMPACT_SPEED]), tuple(out[NORMAL:NORMAL + 3].tolist()), params)
            if flags & DRONE_IMPACT_EVENT:
                self._impact(entity, col, float(out[DRONE_IMPACT_SPEED]),
                             tuple(out[DRONE_NORMAL:DRONE_NORMAL + 3].tolist()), params)
            if flags & TOUCHDOWN_EVENT and entity not in self._just_placed:
                support = out[SUPPORT_Z]
                self.app.emit(events.Touchdown(float(support if support == support else out[BOTTOM_Z]), entity))

    def _impact(self, entity: int, col: Collider, speed: float, normal, params: ContactParams) -> None:
        col.last_impact_speed_m_s = col.impact_speed_m_s = speed
        damage = min(1.0, col.damage + impact_damage(speed, params))
        col.impact_damage, col.damage = damage - col.damage, damage
        self._struck.append(col)
        self.app.emit(events.Impact(speed, normal, col.damage, entity))


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
