"""Weather in flight (docs/model.md#equations-of-motion and #weather; issue #7): wind through the relative airspeed, the
stabilised controller cancelling a constant wind, density through thrust and power, gusts
repeatable for a seed, presets a player can pick, the headless weather setter.

Figures come from docs/model.md: the drag equation F = −½ ρ |v_rel| (CdA ⊙ v_rel) in body axes on
v_rel = v − wind, acting 2 mm above the centre of mass; thrust kT ω² ρ/ρ₀; the power model of
docs/model.md#battery-and-power; and the issue's 0.2 m hold in a 5 m/s wind.
"""

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from components.flight import RigidBody, Rotors
from flight.dynamics import step_body
from flight.vehicle import default_vehicle
from tests import model
from world.level_file import load_level
from world.weather import Weather

DT = 1.0 / 240.0
ROOT = Path(__file__).resolve().parents[2]
MOTOR_XY = ((model.ARM_X, -model.ARM_Y), (-model.ARM_X, -model.ARM_Y), (-model.ARM_X, model.ARM_Y), (model.ARM_X, model.ARM_Y))
ISA_2000_M = 1.0066  # kg/m³, ICAO standard atmosphere table


def rotation(q):
    """Body → world rotation matrix of a quaternion (x, y, z, w)."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def drag_body(q, velocity, wind, density=model.RHO0):
    """The drag of docs/model.md#equations-of-motion, in body axes, for a world velocity and wind."""
    rel = rotation(q).T @ (np.array(velocity) - np.array(wind))
    return -0.5 * density * np.linalg.norm(rel) * np.array(model.CDA) * rel


def armed_hover(make_sim, **kw):
    """Lab world at 50 m, MotorPower 0.5 (RT held 1 s), hovering."""
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0), **kw)
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    return sim


# -- wind: drag force and the 2 mm moment ------------------------------------------------------
@pytest.mark.parametrize("velocity, wind, attitude", [
    ((2.0, 1.0, 0.0), (2.0, 1.0, 0.0), (0.1, -0.2, 0.7)),   # flying with the air: no drag at all
    ((3.0, 0.0, 0.0), (-4.0, 0.0, 0.0), (0.0, 0.2, 0.0)),   # headwind, pitched: some drag on body Z
    ((0.0, -2.0, 1.0), (5.0, 3.0, 0.0), (-0.3, 0.1, 2.0)),  # yawed and tilted in a crosswind
    ((8.0, 0.0, -2.0), (0.0, 0.0, 1.5), (0.0, 0.0, -1.0)),  # updraft
])
def test_drag_acts_on_the_relative_airspeed_in_body_axes(velocity, wind, attitude):
    from flight import quat
    tello = default_vehicle()
    q = quat.from_euler(*attitude)
    body = RigidBody(position=[0.0, 0.0, 10.0], velocity=list(velocity), quaternion=list(q))
    step_body(body.state, Rotors().state, tello.physics, model.RHO0, np.asarray(wind, dtype=float), DT)
    f_b = drag_body(q, velocity, wind)
    expected_acc = rotation(q) @ f_b / model.MASS + np.array([0.0, 0.0, -model.G])
    assert body.acceleration == pytest.approx(expected_acc, rel=1e-9, abs=1e-12)
    # τ = (0, 0, h) × F_body = (−h F_y, h F_x, 0): the angular acceleration over the first step
    alpha = np.array(body.angular_velocity) / DT
    inertia = np.array(model.INERTIA)
    assert alpha == pytest.approx(np.array([-model.AERO_H * f_b[1], model.AERO_H * f_b[0], 0.0]) / inertia, rel=1e-6, abs=1e-9)
    if velocity == wind:
        assert np.all(f_b == 0.0) and np.all(alpha == 0.0)


def test_first_tick_in_a_flown_simulation_feels_the_wind_drag(make_sim):
    wind = (6.0, -2.0, 0.0)
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0), wind=wind)
    sim.step(DT)
    (body,) = sim.components(RigidBody)
    f_b = drag_body((0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0), wind)
    assert body.acceleration == pytest.approx([f_b[0] / model.MASS, f_b[1] / model.MASS, -model.G], rel=1e-9)


@pytest.mark.parametrize("wind", [(2.0, 0.0, 0.0), (0.0, -4.0, 0.0), (3.6, 4.8, 0.0), (-7.0, 0.0, 0.0)])
def test_steady_hover_in_wind_balances_drag_and_its_2_mm_moment(make_sim, wind):
    """Holding station in wind, thrust and drag balance the weight, and the motors' pitch and
    roll moments cancel the drag's moment about the centre of mass — which exists only
    because drag acts 2 mm above it."""
    sim = armed_hover(make_sim, wind=wind)
    sim.run(12.0)
    t = sim.telemetry()
    assert math.hypot(*t.velocity) < 0.01  # holding station
    assert max(abs(w) for w in t.angular_velocity) < 1e-3
    r = rotation(t.quaternion)
    f_b = drag_body(t.quaternion, t.velocity, wind)
    thrust = sum(t.thrust)
    net = r @ (f_b + np.array([0.0, 0.0, thrust])) - np.array([0.0, 0.0, model.MASS * model.G])
    assert np.linalg.norm(net) < 0.005 * np.linalg.norm(f_b)
    # rotor moments r × (0, 0, T) = (y T, −x T, 0) against the drag moment (−h F_y, h F_x, 0)
    rotor = np.array([sum(y * T for (x, y), T in zip(MOTOR_XY, t.thrust)), -sum(x * T for (x, y), T in zip(MOTOR_XY, t.thrust)), 0.0])
    drag_moment = np.array([-model.AERO_H * f_b[1], model.AERO_H * f_b[0], 0.0])
    assert np.linalg.norm(drag_moment) > 0.0
    assert np.linalg.norm(rotor + drag_moment) < 0.02 * np.linalg.norm(drag_moment)


def test_stabilised_controller_cancels_a_constant_5_m_s_wind(make_sim):
    wind = (3.0, -4.0, 0.0)  # 5 m/s
    sim = armed_hover(make_sim, wind=wind)
    assert sim.telemetry().motor_power == pytest.approx(0.5)
    sim.run(10.0)  # settling
    start = sim.telemetry().position
    worst = 0.0
    for _ in range(600):  # the next 10 s
        sim.step()
        p = sim.telemetry().position
        worst = max(worst, math.hypot(p[0] - start[0], p[1] - start[1]))
    assert worst < 0.2
    end = sim.telemetry()
    assert math.hypot(*end.velocity[:2]) < 0.05
    assert math.hypot(end.position[0], end.position[1]) < 0.2  # not blown away from where it started either
    # it leans into the wind: the tilt that holds station against ½ ρ w² CdA
    x, y, _, _ = end.quaternion
    tilt = math.degrees(math.acos(1.0 - 2.0 * (x * x + y * y)))
    assert tilt > 5.0


# -- density -----------------------------------------------------------------------------------
def hover_figures(make_sim, density):
    sim = armed_hover(make_sim, density=density)
    sim.run(8.0)
    rpm, power = [], []
    for _ in range(120):
        sim.step()
        t = sim.telemetry()
        rpm.append(sum(t.rpm) / 4)
        power.append(t.power_w)
    return float(np.mean(rpm)), float(np.mean(power))


def model_hover_power(density):
    """docs/model.md#battery-and-power at hover: induced (4 discs, 40 %) + profile (1.7 W at
    16 400 rpm, ∝ rpm³) + 2.5 W."""
    t = model.MASS * model.G / 4
    disc = math.pi * (model.PROP_D / 2) ** 2
    omega = math.sqrt(t / (model.KT * density / model.RHO0))
    induced = 4 * t ** 1.5 / math.sqrt(2 * density * disc) / 0.4
    profile = 4 * 1.7 * (omega / (16400 * model.RPM)) ** 3
    return induced + profile + 2.5


def test_hover_rpm_rises_as_the_square_root_of_the_density_ratio(make_sim):
    rpm_sea, power_sea = hover_figures(make_sim, model.RHO0)
    rpm_high, power_high = hover_figures(make_sim, ISA_2000_M)
    assert rpm_sea == pytest.approx(model.HOVER_OMEGA / model.RPM, rel=2e-3)
    assert rpm_high / rpm_sea == pytest.approx(math.sqrt(model.RHO0 / ISA_2000_M), rel=2e-3)
    # induced power ∝ T^1.5 / √ρ and profile power ∝ rpm³: both grow in thin air
    assert power_sea == pytest.approx(model_hover_power(model.RHO0), rel=5e-3)
    assert power_high == pytest.approx(model_hover_power(ISA_2000_M), rel=5e-3)


# -- gusts in flight ----------------------------------------------------------------------------
def gusty_log(make_sim, seed, frame_s=1 / 60):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0), seed=seed)
    sim.set_weather(wind=(4.0, 1.0, 0.0), gusts=1.2)
    sim.pad.rt = 1.0
    sim.run(1.0, dt=frame_s)
    sim.pad.rt = 0.0
    winds = []
    for _ in range(round(4.0 / frame_s)):
        sim.step(frame_s)
        winds.append(tuple(sim.app.resource(Weather).wind_now_m_s))
    return sim, winds


def test_gusts_in_flight_repeat_for_a_seed_whatever_the_frame_length(make_sim):
    a, wa = gusty_log(make_sim, seed=5)
    b, wb = gusty_log(make_sim, seed=5)
    c, wc = gusty_log(make_sim, seed=6)
    assert wa == wb
    assert a.telemetry().as_dict() == b.telemetry().as_dict()
    assert wa != wc and a.telemetry().position != c.telemetry().position
    d, _ = gusty_log(make_sim, seed=5, frame_s=1 / 48)  # other frames, same 1/240 s ticks
    assert a.app.resource(Weather).wind_now_m_s == d.app.resource(Weather).wind_now_m_s
    # the wind really varies (its long-run statistics are checked in tests/unit/test_weather.py)
    assert np.array(wa).std(axis=0).min() > 0.05


def test_gusts_over_a_flown_minute_have_the_configured_mean(make_sim):
    sim = armed_hover(make_sim, seed=2)
    sim.set_weather(wind=(0.0, 6.0, 0.0), gusts=1.0)
    winds = []
    for _ in range(3600):
        sim.step()
        winds.append(list(sim.app.resource(Weather).wind_now_m_s))
    w = np.array(winds)
    assert w.mean(axis=0) == pytest.approx([0.0, 6.0, 0.0], abs=0.8)  # slow along-wind gusts (T ≈ 11 s)
    assert 0.3 < w[:, 0].std() < 2.0  # across-wind σ configured 1.0
    assert sim.telemetry().position[2] == pytest.approx(50.0, abs=2.0)  # it keeps flying


# -- presets, menu and the headless setter -------------------------------------------------------
def test_the_level_start_preset_applies_in_full(make_sim):
    level = load_level("street")
    start = level.start_weather
    w = make_sim("street").app.resource(Weather)
    assert (w.wind_m_s, w.gust_intensity_m_s, w.density_kg_m3, w.rain_mm_h) == (
        tuple(start.wind_m_s), start.gust_m_s, start.density_kg_m3, start.rain_mm_h)
    # an explicit wind or density replaces the preset's
    w2 = make_sim("street", wind=(1.0, 2.0, 0.0), density=1.1).app.resource(Weather)
    assert w2.wind_m_s == (1.0, 2.0, 0.0) and w2.density_kg_m3 == 1.1


def test_every_level_preset_is_selectable_from_the_menu(make_sim):
    level = load_level("street")
    sim = make_sim("street")
    weather = sim.app.resource(Weather)
    for preset in level.weather:
        sim.select(f"weather:{preset.id}")
        assert weather.wind_m_s == tuple(preset.wind_m_s)
        assert weather.gust_intensity_m_s == preset.gust_m_s
        assert weather.density_kg_m3 == preset.density_kg_m3
        assert weather.rain_mm_h == preset.rain_mm_h
    sim.select("air:altitude_2000m")
    assert weather.density_kg_m3 == pytest.approx(ISA_2000_M, abs=2e-4)
    sim.select("air:sea_level")
    assert weather.density_kg_m3 == model.RHO0


def test_lab_world_offers_the_built_in_presets(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 10.0))
    sim.select("weather:gusty")
    w = sim.app.resource(Weather)
    assert w.gust_intensity_m_s > 0 and math.hypot(*w.wind_m_s) > 0


def test_set_weather_takes_presets_gusts_rain_and_density_presets(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 10.0))
    w = sim.app.resource(Weather)
    sim.set_weather(preset="breeze")
    assert w.preset_id == "breeze"
    sim.set_weather(gusts=2.0, rain=12.0, density="hot_day", wind=(1.0, 0.0, 0.0))
    assert (w.gust_intensity_m_s, w.rain_mm_h, w.wind_m_s) == (2.0, 12.0, (1.0, 0.0, 0.0))
    assert w.density_kg_m3 == pytest.approx(101325.0 / (287.05287 * 308.15), rel=1e-9)
    before = (w.wind_m_s, w.gust_intensity_m_s, w.rain_mm_h, w.density_kg_m3)
    storm = (9.0, 9.0, 0.0)  # a good value beside each bad one: nothing may change
    for bad, word in ((dict(wind=storm, rain=-1.0), "rain"), (dict(wind=storm, gusts="strong"), "gusts"),
                      (dict(wind=storm, preset="tornado"), "preset"), (dict(wind=storm, density="moon"), "density"),
                      (dict(gusts=3.0, wind=(1.0,)), "wind"), (dict(wind=storm, density=-2.0), "density")):
        with pytest.raises(ValueError, match=word):
            sim.set_weather(**bad)
    assert (w.wind_m_s, w.gust_intensity_m_s, w.rain_mm_h, w.density_kg_m3) == before  # all or nothing


def test_rain_changes_nothing_in_the_flight(make_sim):
    dry = armed_hover(make_sim)
    wet = armed_hover(make_sim)
    wet.set_weather(rain=40.0)
    dry.run(3.0)
    wet.run(3.0)
    assert dry.telemetry().as_dict() == wet.telemetry().as_dict()
    weather = wet.app.resource(Weather)  # what the renderer draws and the HUD notes as visual only
    assert weather.rain_mm_h == 40.0 and weather.rain_level > 0.0


def test_the_headless_simulation_never_imports_pyglet():
    code = ("import sys\nfrom game.simulation import Simulation\n"
            "sim = Simulation()\nsim.set_weather(gusts=1.0, rain=5.0)\nsim.pad.rt = 1.0\nsim.run(1.0)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pyglet'))\n")
    env = dict(os.environ, PYGLET_HEADLESS="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_reloaded_level_brings_its_weather_presets_to_the_menu(make_sim):
    from components import events
    from game.levels import apply_level
    from systems.menu import Menu
    from world.level import WeatherPreset as LevelPreset

    sim = make_sim("street")
    level = sim.level
    sim.select(f"weather:{level.weather[0].id}")
    edited_first = level.weather[0].model_copy(update={"wind_m_s": (0.0, 3.0, 0.0), "gust_m_s": 0.7})
    storm = LevelPreset(id="storm", name="Storm", wind_m_s=(9.0, 0.0, 0.0), gust_m_s=3.0)
    edited = level.model_copy(update={"weather": [edited_first, storm]})
    apply_level(sim.app, edited)
    sim.app.emit(events.LevelReloaded([]))
    ids = [e for e in sim.app.resource(Menu).ids() if e.startswith("weather:")]
    assert ids == [f"weather:{edited_first.id}", "weather:storm"]
    w = sim.app.resource(Weather)
    assert (w.wind_m_s, w.gust_intensity_m_s) == ((0.0, 3.0, 0.0), 0.7)  # the edit is live
    sim.select("weather:storm")
    assert w.wind_m_s == (9.0, 0.0, 0.0)
