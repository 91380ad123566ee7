"""The control law each drone flies follows its mode, frame after frame.

RunFlightController writes a drone's law (and whether it keeps to its line) only when something
it depends on changed: a mode, a drone added or removed, a mode registered. Whatever the order
of those changes, after each frame every drone's row must hold the law of its present mode.
"""

import esper
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.flight import Controller
from components.layout import HOLD_LINE, LAW, LAW_ACRO, LAW_ANGLE, LAW_STABILISED
from components.modes import Mode
from game.simulation import Simulation
from systems.modes import FlightModes, ModeSpec

# "glide" is flown before it is registered (the stabilised law then) and registered mid-flight
# with the Acro law: the drones already in it must change law at once
MODES = [Mode.MANUAL, Mode.ANGLE, Mode.ACRO, Mode.TAKEOFF, Mode.LANDING, "glide"]
EXPECTED_LAW = {Mode.MANUAL: LAW_STABILISED, Mode.ANGLE: LAW_ANGLE, Mode.ACRO: LAW_ACRO,
                Mode.TAKEOFF: LAW_STABILISED, Mode.LANDING: LAW_STABILISED}

actions = st.lists(st.one_of(
    st.tuples(st.just("mode"), st.integers(0, 3), st.sampled_from(MODES)),
    st.tuples(st.just("add"), st.integers(0, 3), st.none()),
    st.tuples(st.just("remove"), st.integers(1, 3), st.none()),
    st.tuples(st.just("register"), st.none(), st.none()),
    st.tuples(st.just("frames"), st.integers(1, 3), st.none()),
), min_size=1, max_size=25)


def controller(sim, drone) -> Controller:
    sim.app.activate()
    return esper.component_for_entity(drone.entity, Controller)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions)
def test_every_drone_flies_the_law_of_its_present_mode(steps):
    with Simulation(level=None, position=(0.0, 0.0, 50.0)) as sim:
        registered = False
        for kind, index, mode in steps:
            drones = sim.drones
            if kind == "mode":
                controller(sim, drones[index % len(drones)]).mode = mode
            elif kind == "add" and len(drones) < 4:
                sim.add_drone(position=(3.0 * len(drones), 0.0, 50.0))
            elif kind == "remove" and len(drones) > 1:
                sim.remove_drone(drones[1 + index % (len(drones) - 1)])
            elif kind == "register" and not registered:
                sim.app.resource(FlightModes).register(ModeSpec("glide", None, law=LAW_ACRO, pilot=False))
                registered = True
            for _ in range(index if kind == "frames" else 1):
                sim.step()
            for drone in sim.drones:
                ctrl = controller(sim, drone)
                law = EXPECTED_LAW.get(ctrl.mode, LAW_ACRO if registered else LAW_STABILISED)
                assert ctrl.targets[LAW] == law, (ctrl.mode, registered)
                assert ctrl.targets[HOLD_LINE] == (1.0 if ctrl.mode == Mode.MANUAL else 0.0)
