"""A mod adds a flight mode and menu entries through the plugin API, as the game's own features do,
and a mod's menu action that raises disables the mod, never the game."""

import esper

from components.flight import Controller
from engine.stages import Stage
from game.simulation import Simulation
from systems.manual import ApplyManualSetpoints
from systems.menu import Menu, MenuEntry
from systems.modes import FlightModes, ModeSpec

CLIMB_M_S = 1.0


class ClimbSteadily(esper.Processor):
    """The mode's setpoints: climb at 1 m/s, hold the horizontal position."""

    def process(self, dt):
        for _, ctrl in esper.get_component(Controller):
            if ctrl.mode == "climb":
                ctrl.hold_altitude = False
                ctrl.target_velocity[:] = (0.0, 0.0, CLIMB_M_S)
                ctrl.target_yaw_rate = 0.0


class ClimbMode:
    name = "climb-mode"

    def build(self, app):
        app.resource(FlightModes).register(ModeSpec("climb", "Climb"))  # stabilised law, a menu entry
        app.add_system(ClimbSteadily(), Stage.ASSIST, after=ApplyManualSetpoints)


class Boom:
    name = "boom"

    def build(self, app):
        app.resource(Menu).add(MenuEntry("boom", "Boom", self.explode))

    def explode(self):
        raise RuntimeError("menu bug")


def test_a_mod_mode_is_chosen_in_the_menu_and_flies_its_setpoints():
    with Simulation(level=None, position=(0.0, 0.0, 20.0), plugins=[ClimbMode()]) as sim:
        assert "climb" in sim.app.resource(Menu).ids()
        sim.pad.rt = 1.0
        sim.run(0.5)  # armed, hovering
        sim.pad.rt = 0.0
        sim.select("climb")
        sim.run(4.0)
        t = sim.telemetry()
        assert t.mode == "climb"
        assert abs(t.velocity[2] - CLIMB_M_S) < 0.1  # the stabilised law holds the mod's vertical speed
        assert abs(t.position[0]) < 0.2 and abs(t.position[1]) < 0.2
        sim.set_mode("manual")  # and back: the hand-over brakes to a hover
        sim.run(3.0)
        assert sim.telemetry().mode == "manual" and abs(sim.telemetry().velocity[2]) < 0.1


def test_a_mod_mode_name_cannot_take_a_game_mode():
    class Thief:
        name = "thief"

        def build(self, app):
            app.resource(FlightModes).register(ModeSpec("acro", "Mine"))

    with Simulation(level=None, plugins=[Thief()]) as sim:
        assert any("already registered" in line for line in sim.mod_problems)
        sim.set_mode("acro")  # still the game's
        assert sim.telemetry().mode == "acro"


def test_a_mod_menu_action_that_raises_disables_the_mod_not_the_game():
    with Simulation(level=None, plugins=[Boom()]) as sim:
        sim.select("boom")
        sim.run(0.1)
        assert sim.mod_problems == ["mod 'boom' disabled: menu entry 'boom' raised RuntimeError: menu bug"]
        sim.select("boom")  # inert now
        assert len(sim.mod_problems) == 1
