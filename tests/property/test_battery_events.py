"""The battery's announcements, per drone, in any order of what happens to it: BatteryLow once
below 20 % of the pack's energy, BatteryDepleted (and Disarmed "battery_depleted") once when
it is empty, Armed / Disarmed "motor_power_zero" on each arming edge — and a Restart of one
drone (a fresh pack) lets its warnings come again, no other drone's."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from components import events
from components.flight import Battery, Controller
from components.layout import DEPLETED, MOTOR_POWER
from game.simulation import Simulation

LOW_FRACTION = 0.2  # the pack is low below this share of its energy
DRONES = 3

act = st.one_of(
    st.tuples(st.just("energy"), st.integers(0, DRONES - 1), st.sampled_from([1.0, 0.5, 0.21, 0.19, 0.05, 0.0])),
    st.tuples(st.just("power"), st.integers(0, DRONES - 1), st.sampled_from([0.0, 0.3, 1.0])),
    st.tuples(st.just("reset"), st.integers(0, DRONES - 1), st.none()),
)
steps = st.lists(st.tuples(act, st.integers(1, 4)), min_size=1, max_size=30)


class Heard:
    def __init__(self):
        self.got = []

    def low(self, e):
        self.got.append(("low", e.entity))

    def depleted(self, e):
        self.got.append(("depleted", e.entity))

    def armed(self, e):
        self.got.append(("armed", e.entity))

    def disarmed(self, e):
        if e.reason != "landed":
            self.got.append((f"disarmed {e.reason}", e.entity))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_each_drone_hears_of_its_battery_once_and_of_each_arming_edge(plan):
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
    try:
        drones = [sim.drones[0]] + [sim.add_drone(position=(20.0 * i, 0.0, 100.0)) for i in range(1, DRONES)]
        entities = [d.entity for d in drones]
        player = entities[0]
        heard = Heard()
        for kind, handler in ((events.BatteryLow, heard.low), (events.BatteryDepleted, heard.depleted),
                              (events.Armed, heard.armed), (events.Disarmed, heard.disarmed)):
            sim.app.on(kind, handler)
        flags = {e: [False, False, False] for e in entities}  # the model: warned low, depleted, armed
        sim.step()
        heard.got.clear()
        for e in entities:
            flags[e][2] = _armed(drones[entities.index(e)])
        for (kind, i, value), frames in plan:
            drone = drones[i]
            (battery, ctrl) = drone.components(Battery, Controller)
            if kind == "energy":
                battery.energy_j = value * battery.capacity_j
            elif kind == "power":
                ctrl.motor_power = value
            else:
                drone.reset()  # a fresh pack, motors off: every flag starts again (no "Disarmed" for it)
                flags[entities[i]][:] = [False, False, False]
            for _ in range(frames):
                sim.step()
                expected = []
                for d, e in zip(drones, entities):
                    (battery, ctrl) = d.components(Battery, Controller)
                    f = flags[e]
                    depleted = battery.state[DEPLETED] != 0.0
                    armed = ctrl.targets[MOTOR_POWER] > 0.0 and not depleted
                    if battery.energy_j / battery.capacity_j < LOW_FRACTION and not f[0]:
                        f[0] = True
                        expected.append(("low", e))
                    if depleted and not f[1]:
                        f[1] = True
                        expected += [("depleted", e), ("disarmed battery_depleted", e)]
                    if armed != f[2]:
                        if armed:
                            expected.append(("armed", e))
                        elif not depleted:
                            expected.append(("disarmed motor_power_zero", e))
                        f[2] = armed
                got = [(name, player if entity is None else entity) for name, entity in heard.got]
                assert sorted(got) == sorted(expected), (got, expected)
                heard.got.clear()
    finally:
        sim.close()


def _armed(drone) -> bool:
    (battery, ctrl) = drone.components(Battery, Controller)
    return ctrl.targets[MOTOR_POWER] > 0.0 and battery.state[DEPLETED] == 0.0
