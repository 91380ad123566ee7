"""The fixed ticks of a frame in one compiled call, when the fixed systems would do just that.

A frame of 1/60 s is four ticks of 1/240 s, and each tick runs five systems —
RunFlightController, BlowWind, IntegrateDynamics, ResolveContacts, RunCourse — whose work is
mostly one compiled call each. Most frames, the Python around those calls decides nothing:
the wind is steady, no course runs, no contact needs announcing. `FusedTicks` (the App's
`tick_runner`) spots those frames and runs their ticks with world/ticks.py instead: the same
kernels in the same order, with the same arguments, so the result is the systems' bit for bit,
for less (the whole App of one drone runs about twice as fast).

It steps aside — the systems run the tick — whenever anything needs them: a gusty wind (the
gust is drawn in Python every tick), a course counting down or running, a contact event (the
run stops after the tick that had it, which is announced; after an impact the next tick runs
through the systems, which forget it), a drone just placed,
the fleet spread over several blocks, and any other system in the fixed stages (a mod's
CONTROL-stage system runs between the control law and the dynamics, every tick, as promised).
"""

from __future__ import annotations

from components.fleet import FleetStore
from engine.app import App
from systems.collision import ResolveContacts
from systems.control import RunFlightController
from systems.course import RunCourse
from systems.dynamics import IntegrateDynamics
from systems.weather import BlowWind
from world.ticks import fly_ticks, fly_ticks_in_the_open
from world.weather import Weather


class FusedTicks:
    """The App's `tick_runner`: whole ticks in one call while the fixed systems are these."""

    def __init__(self, app: App, control: RunFlightController, wind: BlowWind, dynamics: IntegrateDynamics,
                 contacts: ResolveContacts, course: RunCourse | None) -> None:
        self.app = app
        self.control, self.wind, self.dynamics, self.contacts, self.course = control, wind, dynamics, contacts, course
        self.weather = app.resource(Weather)
        # the fixed systems, in the order the kernels run their work; any other, or another order: step aside
        self.expected = tuple(s for s in (control, wind, dynamics, contacts, course) if s is not None)
        self._version = -1  # the App's fixed_version `_alone_in_fixed` was checked at
        self._alone_in_fixed = False

    def run_ticks(self, ticks: int, tick_s: float) -> int:
        app = self.app
        if app.fixed_version != self._version:
            self._version = app.fixed_version
            self._alone_in_fixed = app.fixed_systems() == self.expected
        if not self._alone_in_fixed:
            return 0
        store = app.try_resource(FleetStore)
        if store is None or len(store.blocks) != 1 or (self.course is not None and not self.course.idle()) \
                or not self.wind.steady():
            return 0
        rows = store.rows(0)
        if not rows.shape[0]:
            return 0
        plan = self.contacts.plan_whole_ticks(store)
        if plan is None:
            return 0
        level, drones, contact_args = plan
        cols = self.control.ready(store)
        wind = self.dynamics.ready(store)
        density = self.weather.density_kg_m3
        block = store.blocks[0]
        if not (level or drones):
            fly_ticks_in_the_open(block, rows, cols, density, wind, ticks, tick_s)
            return ticks
        done, event = fly_ticks(block, rows, cols, density, wind, ticks, tick_s, level, drones, *contact_args)
        if event:
            self.contacts.announce(0, block, rows)
        return done


class FusedTicksPlugin:
    """Installs `FusedTicks` over the fixed systems of the control, weather, dynamics, level
    and course plugins (build it after them; without one of the first four it does nothing)."""

    name = "fused-ticks"

    def build(self, app: App) -> None:
        found = [app.get_system(kind) for kind in (RunFlightController, BlowWind, IntegrateDynamics, ResolveContacts)]
        if all(s is not None for s in found):
            app.tick_runner = FusedTicks(app, *found, app.get_system(RunCourse))
