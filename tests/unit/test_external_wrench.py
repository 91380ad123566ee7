"""The ExternalWrench (components/flight.py): a mod's outside force and torque, applied by the
dynamics inside the compiled integration (docs/model.md#equations-of-motion: m a = ΣF, I dω/dt =
τ − ω × Iω, with the wrench among the forces and torques).

Expected values come from those equations and docs/model.md's figures (tests/model.py), never
from the code's output."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import esper
import numpy as np
import pytest

from components.flight import Airframe, Battery, ExternalWrench, RigidBody, Rotors
from flight import quat
from flight.dynamics import step_body, step_dynamics, step_dynamics_with_wrench
from flight.vehicle import default_vehicle
from tests import model

ROOT = Path(__file__).resolve().parents[2]
DT = 1.0 / 240.0
# (m g) / m − g: one product, one quotient and one difference, each rounded to half an ulp of g
WEIGHTLESS_TOLERANCE_M_S2 = 2.0 * np.spacing(model.G)


@pytest.fixture(scope="module")
def tello():
    return default_vehicle()


def at_rest(quaternion=(0.0, 0.0, 0.0, 1.0), angular_velocity=(0.0, 0.0, 0.0)) -> RigidBody:
    return RigidBody(position=(0.0, 0.0, 50.0), quaternion=quaternion, previous_quaternion=quaternion,
                     angular_velocity=angular_velocity)


def the_drone(sim):
    sim.app.activate()
    ((entity, _),) = esper.get_component(Airframe)
    return entity


def test_an_upward_wrench_of_m_g_holds_an_unarmed_drone_weightless(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 30.0))  # MotorPower 0: the motors are off
    entity = the_drone(sim)
    esper.add_component(entity, ExternalWrench(force_n=(0.0, 0.0, model.MASS * model.G)))
    (body,) = sim.components(RigidBody)
    for _ in range(60):  # one second; the wrench is written once and persists
        sim.step()
        assert np.abs(body.acceleration).max() <= WEIGHTLESS_TOLERANCE_M_S2  # the reported acceleration includes it
        assert not sim.telemetry().armed
    assert list(body.velocity) == [0.0, 0.0, 0.0] and list(body.position) == [0.0, 0.0, 30.0]
    # taken away, gravity is back from the next tick: one tick from rest, no drag yet
    esper.remove_component(entity, ExternalWrench)
    sim.step(DT)
    assert list(body.acceleration) == [0.0, 0.0, -model.G]


def test_the_drone_without_a_wrench_falls_as_before(make_sim):
    sim = make_sim(level=None, density=0.0, position=(0.0, 0.0, 30.0))
    sim.run(1.0)
    assert sim.telemetry().position[2] == pytest.approx(30.0 - 0.5 * model.G, abs=1e-9)


def test_a_body_frame_force_turns_with_the_drone(tello):
    """Rolled by θ about X, body Z points along (0, −sin θ, cos θ) in the world."""
    theta = math.radians(30.0)
    body = at_rest(quat.from_axis_angle((1.0, 0.0, 0.0), theta))
    wrench = ExternalWrench(force_n=(0.0, 0.0, model.MASS * model.G), frame="body")
    step_body(body.state, Rotors().state, tello.physics, 0.0, np.zeros(3), DT, wrench.state)
    expected = (0.0, -model.G * math.sin(theta), model.G * math.cos(theta) - model.G)
    assert body.acceleration == pytest.approx(expected, abs=1e-12)


def test_a_body_frame_torque_gives_tau_over_i_at_rest(tello):
    torque = (2.0e-4, -3.0e-4, 1.0e-4)  # N·m
    body = at_rest()
    wrench = ExternalWrench(torque_nm=torque, frame="body")
    step_body(body.state, Rotors().state, tello.physics, model.RHO0, np.zeros(3), DT, wrench.state)
    # at ω = 0 the damping −(c₁ + c₂|ω|) ρ/ρ₀ ω and the gyroscopic ω × Iω are zero
    alpha = body.angular_velocity / DT
    assert alpha == pytest.approx([t / i for t, i in zip(torque, model.INERTIA)], rel=1e-12)
    assert body.acceleration == pytest.approx((0.0, 0.0, -model.G), abs=1e-12)  # a torque only turns it


def test_the_torque_adds_to_the_damping_of_a_spinning_body(tello):
    c1, c2 = 1.2e-5, 3e-6  # N·m·s/rad, N·m·s²/rad² (docs/model.md#equations-of-motion)
    w0, torque = 2.0, 5.0e-5  # rad/s about X, N·m
    body = at_rest(angular_velocity=(w0, 0.0, 0.0))
    wrench = ExternalWrench(torque_nm=(torque, 0.0, 0.0), frame="body")
    step_body(body.state, Rotors().state, tello.physics, model.RHO0, np.zeros(3), DT, wrench.state)
    expected = (torque - (c1 + c2 * w0) * w0) / model.INERTIA[0]  # one axis: no gyroscopic term
    assert (body.angular_velocity[0] - w0) / DT == pytest.approx(expected, rel=1e-9)


def test_a_world_frame_torque_is_turned_into_body_axes(tello):
    """Yawed by 90°, world X is body −Y: a torque about world X accelerates about body −Y."""
    body = at_rest(quat.from_axis_angle((0.0, 0.0, 1.0), math.pi / 2))
    wrench = ExternalWrench(torque_nm=(1.0e-4, 0.0, 0.0))
    assert wrench.frame == "world"
    step_body(body.state, Rotors().state, tello.physics, model.RHO0, np.zeros(3), DT, wrench.state)
    alpha = body.angular_velocity / DT
    assert alpha == pytest.approx([0.0, -1.0e-4 / model.INERTIA[1], 0.0], abs=1e-9)


def test_a_zero_wrench_changes_nothing(tello):
    def fly(with_wrench):
        body = at_rest(quat.from_euler(0.1, -0.2, 0.3), angular_velocity=(0.4, -0.5, 0.6))
        body.velocity = (3.0, -1.0, 0.5)
        rotors = Rotors(speed_rad_s=[1700.0, 1750.0, 1700.0, 1650.0], setpoint_rad_s=[1800.0] * 4,
                        max_speed_rad_s=2300.0, armed=True)
        battery = Battery(energy_j=15000.0, capacity_j=15048.0)
        wrench = ExternalWrench(frame="body")
        for _ in range(240):
            if with_wrench:
                step_dynamics_with_wrench(body.state, rotors.state, battery.state, tello.physics, 1.1,
                                          np.array([2.0, 1.0, 0.0]), DT, wrench.state)
            else:
                step_dynamics(body.state, rotors.state, battery.state, tello.physics, 1.1, np.array([2.0, 1.0, 0.0]),
                              DT)
        return body.state.copy()

    assert np.array_equal(fly(True), fly(False))


def test_the_wrench_frame_is_world_or_body():
    with pytest.raises(ValueError):
        ExternalWrench(frame="north")
    assert ExternalWrench(frame="body").frame == "body"


# -- the example tether mod, through the wrench ----------------------------------------------------
def tether_mod():
    path = ROOT / "examples" / "mods" / "tether.py"
    spec = importlib.util.spec_from_file_location("donify_test_tether", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fly_away(sim, seconds):
    """Arm to MotorPower 0.5 (4 m/s asked), choose straight ahead, cruise; distances from the start."""
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    distances = []
    for _ in range(round(seconds * 60)):
        sim.step()
        distances.append(math.dist(sim.telemetry().position, (0.0, 0.0, 20.0)))
    return distances


def test_the_tether_keeps_the_drone_within_its_line_while_it_cruises_away(make_sim):
    tether = tether_mod()
    free = fly_away(make_sim(level=None, position=(0.0, 0.0, 20.0)), 8.0)
    sim = make_sim(level=None, position=(0.0, 0.0, 20.0), plugins=[tether.plugin])
    tied = fly_away(sim, 8.0)
    assert sim.mod_problems == []
    assert free[-1] > 25.0  # untied, 8 s at 4 m/s
    # the stretch the line can take: the energy of the cruise (½ m v², v = 4 m/s asked) plus the
    # work of the most horizontal force the controller has (m g tan 25°) over the stretch, all
    # stored in the spring (½ k s²): s = (F + √(F² + k m v²)) / k; the damping only shortens it
    k, m, v = tether.STIFFNESS_N_M, model.MASS, 4.0
    push = m * model.G * math.tan(math.radians(25.0))
    stretch = (push + math.sqrt(push ** 2 + k * m * v ** 2)) / k
    assert max(tied) > tether.LENGTH_M  # the line did go taut
    assert max(tied) < tether.LENGTH_M + stretch
    assert tied[-1] > tether.LENGTH_M - 1.0  # still asked to cruise: it hangs at the end of its line
    (entity_wrench,) = sim.components(ExternalWrench)
    assert entity_wrench.frame == "world" and np.linalg.norm(entity_wrench.force_n) > 0.0


def test_a_mod_that_writes_nan_into_the_wrench_is_disabled_and_the_drone_stays_finite():
    """The mods' state guard covers the wrench too: a NaN force would otherwise reach the body at
    the next integration, outside the mod's own call."""
    import esper

    from components.flight import ExternalWrench
    from engine.stages import Stage
    from game.simulation import Simulation
    from systems.scene import Player

    class PushNaN(esper.Processor):
        def __init__(self, app):
            self.app = app
            self.ticks = 0

        def process(self, dt):
            self.ticks += 1
            entity = self.app.resource(Player).entity
            if self.ticks == 1:
                esper.add_component(entity, ExternalWrench(force_n=(0.0, 0.0, 0.1)))
            elif self.ticks == 10:
                esper.component_for_entity(entity, ExternalWrench).force_n[0] = float("nan")

    class NaNMod:
        name = "nan-wrench"

        def build(self, app):
            app.add_system(PushNaN(app), Stage.CONTROL)

    with Simulation(level=None, position=(0.0, 0.0, 20.0), plugins=[NaNMod()]) as sim:
        sim.run(1.0)
        t = sim.telemetry()
        assert len(sim.mod_problems) == 1 and "ExternalWrench.force_n" in sim.mod_problems[0]
        assert all(math.isfinite(v) for v in (*t.position, *t.velocity, *t.angular_velocity))
        wrench = sim.components(ExternalWrench)[0]
        assert list(wrench.force_n) == [0.0, 0.0, 0.1]  # put back as it was before the bad write
