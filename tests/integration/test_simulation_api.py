"""The headless Simulation contract (docs/api.md#the-headless-simulation): names, determinism, bad arguments."""

import dataclasses
import io
import json
import math

import pytest

from engine.datafile import DataFileError
from game.fly import run_fly
from game.simulation import Simulation
from game.telemetry import Telemetry

CONTRACT_FIELDS = [
    "time", "mode", "armed", "motor_power", "position", "velocity", "quaternion", "roll_deg",
    "pitch_deg", "yaw_deg", "angular_velocity", "rpm", "thrust", "target_velocity",
    "target_altitude", "height_above_ground", "contact", "battery_fraction", "battery_energy_wh",
    "battery_voltage", "power_w", "damage", "trail_points", "mission", "landing_refused",
    "crashed", "course",
]


def fly(sim):
    """A bit of everything: arm, climb, cruise, yaw, gusty weather, brake."""
    out = []
    sim.pad.rt = 1.0
    for k in range(60 * 8):
        if k == 60:
            sim.pad.rt = 0.0
            sim.pad.press("Y")
        if k == 180:
            sim.pad.release("Y")
            sim.pad.left = (0.3, 0.9)
        if k == 181:
            sim.pad.left = (0.0, 0.0)
            sim.pad.right = (0.5, 0.0)
        if k == 300:
            sim.pad.right = (0.0, 0.0)
            sim.pad.press("LS")
        sim.step()
        out.append(json.dumps(sim.telemetry().as_dict()))
    return out


def test_telemetry_has_exactly_the_contract_names(make_sim):
    t = make_sim().telemetry()
    assert [f.name for f in dataclasses.fields(Telemetry)] == CONTRACT_FIELDS
    d = t.as_dict()
    assert list(d) == CONTRACT_FIELDS
    json.dumps(d)
    assert len(d["quaternion"]) == 4 and len(d["rpm"]) == 4 and len(d["thrust"]) == 4


def test_same_inputs_and_seed_give_bit_identical_telemetry(make_sim):
    a = fly(make_sim("street", seed=7))
    b = fly(make_sim("street", seed=7))
    assert a == b
    gusty_a = make_sim("street", seed=3)
    gusty_b = make_sim("street", seed=3)
    other = make_sim("street", seed=4)
    for sim in (gusty_a, gusty_b, other):
        sim.set_weather(wind=(4.0, 0.0, 0.0), gusts=1.5)
    ra, rb, rc = fly(gusty_a), fly(gusty_b), fly(other)
    assert ra == rb
    assert ra != rc  # the seed does drive the gusts


def test_default_world_is_the_street_with_the_drone_resting_on_its_pad(make_sim):
    sim = make_sim()
    sim.run(2.0)
    t = sim.telemetry()
    pad = sim.level.spawn
    assert t.contact and t.position[2] == pytest.approx(pad.top_m + 0.041 / 2, abs=1e-6)
    assert math.hypot(*t.velocity) == 0.0
    assert t.height_above_ground == pytest.approx(0.0, abs=1e-6)


def test_run_counts_game_time(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    sim.run(2.0)
    assert sim.telemetry().time == 2.0
    sim.step(1.0)  # a long frame is capped at 0.25 s
    assert sim.telemetry().time == 2.25
    assert sim.app.clock.ticks == 540


@pytest.mark.parametrize("call", [
    lambda s: s.step(float("nan")),
    lambda s: s.step(0.0),
    lambda s: s.step(-1 / 60),
    lambda s: s.run(float("inf")),
    lambda s: s.set_mode("turbo"),
    lambda s: s.select("warp"),
    lambda s: s.pad.press("Z"),
    lambda s: setattr(s.pad, "left", (2.0, 0.0)),
    lambda s: setattr(s.pad, "rt", float("nan")),
    lambda s: s.set_weather(density=-1.0),
])
def test_bad_arguments_raise_a_clear_value_error(make_sim, call):
    sim = make_sim(level=None)
    with pytest.raises(ValueError) as exc:
        call(sim)
    assert "\n" not in str(exc.value) and len(str(exc.value)) > 10


@pytest.mark.parametrize("kwargs", [
    {"position": (0.0, float("nan"), 1.0)},
    {"position": (0.0, 1.0)},
    {"wind": (1.0, 2.0)},
    {"density": float("nan")},
    {"seed": 1.5},
    {"level": 42},
])
def test_bad_constructor_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        Simulation(**kwargs)


def stick(sim, deflection):
    """What a stick deflection commands after the radial dead zone (rescaled to full travel)."""
    dz = sim.vehicle.control["stick_dead_zone"]
    return math.copysign(max(0.0, (abs(deflection) - dz) / (1.0 - dz)), deflection)


def test_acro_tracks_the_commanded_rates(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    sim.set_mode("acro")
    sim.pad.rt = 1.0
    sim.run(1.12)  # collective 0.56: about the hover thrust
    sim.pad.rt = 0.0
    max_rate = sim.vehicle.control["max_rate"]
    sim.pad.left = (0.4, 0.0)  # roll right
    sim.run(0.4)
    t = sim.telemetry()
    assert t.angular_velocity[0] == pytest.approx(stick(sim, 0.4) * max_rate[0], rel=0.03)
    assert abs(t.angular_velocity[1]) < 0.05 and abs(t.angular_velocity[2]) < 0.05
    # from a level hover, yaw left: counter-clockwise, positive
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    sim.set_mode("acro")
    sim.pad.rt = 1.0
    sim.run(1.12)
    sim.pad.rt = 0.0
    sim.pad.right = (-0.5, 0.0)
    sim.run(0.6)
    t = sim.telemetry()
    assert abs(t.angular_velocity[0]) < 0.05 and abs(t.angular_velocity[1]) < 0.05
    assert t.angular_velocity[2] == pytest.approx(stick(sim, 0.5) * max_rate[2], rel=0.05)


def test_angle_mode_holds_the_stick_angle(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    sim.set_mode("angle")
    sim.pad.rt = 1.0
    sim.run(1.12)
    sim.pad.rt = 0.0
    tilt = math.degrees(sim.vehicle.control["angle_max_tilt"])
    sim.pad.left = (0.0, 0.5)  # nose down: positive pitch
    sim.run(1.0)
    t = sim.telemetry()
    assert t.pitch_deg == pytest.approx(stick(sim, 0.5) * tilt, abs=0.5)
    assert abs(t.roll_deg) < 0.5
    assert t.velocity[0] > 0.5  # tilting the nose down flies forward (+X)


# -- contract breaks found from outside: each raised late, or said nothing ---------------------
@pytest.mark.parametrize("stick, value", [("right", 0.5), ("left", 0.5), ("left", (0.1, 0.2, 0.3)),
                                          ("right", (None, 0.0)), ("left", (math.nan, 0.0))])
def test_a_bad_stick_write_raises_at_the_write(make_sim, stick, value):
    sim = make_sim()
    with pytest.raises(ValueError, match=f"pad.{stick}"):
        setattr(sim.pad, stick, value)
    sim.step()  # the pad is unchanged and the next frame runs


def test_height_above_ground_is_known_before_the_first_tick(make_sim):
    sim = make_sim("street")
    assert sim.telemetry().height_above_ground == pytest.approx(0.0, abs=1e-3)  # resting on the start pad
    high = make_sim("street", position=(0.0, 0.0, 5.0))
    pad_top = high.level.spawn.top_m
    assert high.telemetry().height_above_ground == pytest.approx(5.0 - 0.5 * high.vehicle.envelope_size_m[2] - pad_top,
                                                                 abs=1e-6)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, True, "3"])
def test_one_seed_rule_for_the_api_scripts_and_the_command_line(make_sim, seed, tmp_path):
    with pytest.raises(ValueError, match="seed"):
        make_sim(level=None, seed=seed)
    if isinstance(seed, int) and not isinstance(seed, bool):
        script = tmp_path / "s.toml"
        script.write_text(f"seconds = 0.1\nseed = {seed}\n[[timeline]]\nat = 0.0\nrt = 0.0\n")
        with pytest.raises(DataFileError, match=":2: seed: expected"):
            run_fly(None, str(script), None, None, None, out=io.StringIO(), err=io.StringIO())
        with pytest.raises(ValueError, match="--seed: expected a whole number from 0"):
            run_fly(None, "examples/street_manual.toml", "0.1", None, str(seed), out=io.StringIO(), err=io.StringIO())


def test_a_start_under_the_ground_or_a_vehicle_of_the_wrong_kind_is_refused():
    with pytest.raises(ValueError, match=r"position: z = -0.5 m puts the drone's guards below the ground of this level \(0 m\): their bottom at -0.5205 m; resting on the ground is z = 0.0205 m"):
        Simulation("street", position=(0.0, 0.0, -0.5))
    with pytest.raises(ValueError, match="vehicle: expected a vehicle file path or a Vehicle, got 3"):
        Simulation(level=None, vehicle=3)
    with Simulation(level=None, position=(0.0, 0.0, -500.0)) as lab:  # the empty world has no ground
        lab.run(0.1)
        assert lab.telemetry().position[2] < -500.0
