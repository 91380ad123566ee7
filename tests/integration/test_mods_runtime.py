"""Mods while the game runs: a mod that raises, writes NaN into the drone's state or is slow
is disabled (or named) in one line and the game and the other mods go on; strict mode
re-raises. The CLI's headless commands take --mods; the example mods are flown here."""

from __future__ import annotations

import logging
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import esper
import pytest

import game.plugins as gp
from components.flight import Battery, RigidBody
from engine.stages import Stage
from components import events
from game import cli
from game.simulation import Simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_MODS = ROOT / "examples" / "mods"


class Count(esper.Processor):
    def __init__(self):
        self.frames = 0

    def process(self, dt):
        self.frames += 1


class Raise(esper.Processor):
    def __init__(self, after_frames=0):
        self.after, self.calls = after_frames, 0

    def process(self, dt):
        self.calls += 1
        if self.calls > self.after:
            raise ZeroDivisionError("division by zero")


class WriteNaN(esper.Processor):
    def __init__(self, kind=RigidBody, field="position"):
        self.kind, self.field, self.calls = kind, field, 0

    def process(self, dt):
        self.calls += 1
        for _, component in esper.get_component(self.kind):
            if self.field == "energy_j":
                component.energy_j = math.nan
            else:
                getattr(component, self.field)[0] = math.nan


class Sleep(esper.Processor):
    def process(self, dt):
        time.sleep(0.004)


class Mod:
    """A mod made of the systems given, each with its stage, and an optional RESET handler."""

    def __init__(self, name, *systems, on_reset=None):
        self.name, self.systems, self.reset_error = name, systems, on_reset
        self.resets = 0

    def build(self, app):
        for system, stage in self.systems:
            app.add_system(system, stage)
        app.on(events.Reset, self.on_reset)

    def on_reset(self, event):
        self.resets += 1
        if self.reset_error is not None:
            raise self.reset_error


class Messages:
    def __init__(self, app):
        self.lines = []
        app.on(events.Message, self.on_message)

    def on_message(self, event):
        self.lines.append(event.text)


def lab(**kwargs) -> Simulation:
    return Simulation(level=None, position=(0.0, 0.0, 20.0), **kwargs)


def hover_and_cruise(sim, seconds=2.0, power=1.0):
    sim.pad.rt = power
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    sim.run(seconds)


# -- a mod that raises ------------------------------------------------------------------------------
def test_a_raising_mod_is_disabled_whole_and_the_game_and_other_mods_go_on(caplog):
    broken = Mod("broken", (Raise(after_frames=3), Stage.GAMEPLAY), (Count(), Stage.ASSIST))
    good = Mod("good", (Count(), Stage.GAMEPLAY))
    with caplog.at_level(logging.WARNING, logger="donify"), lab(plugins=[broken, good]) as sim:
        messages = Messages(sim.app)
        hover_and_cruise(sim, 1.0)
        t = sim.telemetry()
        assert t.time > 2.0 and t.armed and math.hypot(*t.velocity[:2]) > 1.0  # the game flew on
        raiser, broken_counter = broken.systems[0][0], broken.systems[1][0]
        assert raiser.calls == 4 and broken_counter.frames == 4  # every system of the mod stopped with it
        assert good.systems[0][0].frames == round(t.time * 60)  # the other mod went on
        sim.reset()
        assert broken.resets == 0 and good.resets == 1  # its handlers too
        names = [name for _, name in sim.app.systems()]
        assert "Raise" not in names and names.count("Count") == 1
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("donify")]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "'broken'" in lines[0] and "Raise" in lines[0] and "ZeroDivisionError: division by zero" in lines[0]
    assert messages.lines == lines  # the same line as a MESSAGE event: the HUD shows it
    assert sim.mod_problems == lines


def test_the_hud_message_is_emitted_when_a_mod_is_disabled():
    class Listen:
        name = "listener"

        def build(self, app):
            self.messages = Messages(app)

    listener = Listen()
    with lab(plugins=[listener, Mod("broken", (Raise(), Stage.DYNAMICS))]) as sim:
        sim.run(0.1)
        assert len(listener.messages.lines) == 1 and "'broken'" in listener.messages.lines[0]
        assert "Raise (DYNAMICS)" in listener.messages.lines[0]


def test_a_raising_handler_disables_the_mod():
    mod = Mod("bad-reset", (Count(), Stage.GAMEPLAY), on_reset=KeyError("spawn"))
    with lab(plugins=[mod]) as sim:
        sim.run(0.1)
        sim.reset()  # the game's own reset goes on
        sim.run(0.1)
        assert mod.systems[0][0].frames == 6
        assert len(sim.mod_problems) == 1 and "reset" in sim.mod_problems[0] and "KeyError" in sim.mod_problems[0]
        assert sim.telemetry().position[2] == pytest.approx(20.0, abs=0.5)


def test_strict_mods_re_raise():
    with lab(plugins=[Mod("broken", (Raise(), Stage.GAMEPLAY))], strict_mods=True) as sim:
        with pytest.raises(ZeroDivisionError):
            sim.step()


def test_sys_exit_in_a_mod_system_disables_it_instead_of_quitting():
    class Exit(esper.Processor):
        def process(self, dt):
            raise SystemExit(0)

    with lab(plugins=[Mod("quitter", (Exit(), Stage.GAMEPLAY))]) as sim:
        sim.run(0.2)
        assert len(sim.mod_problems) == 1 and "SystemExit" in sim.mod_problems[0]


# -- a mod that writes NaN into the drone's state -------------------------------------------------
@pytest.mark.parametrize("stage, kind, field", [(Stage.GAMEPLAY, RigidBody, "position"),
                                                 (Stage.DYNAMICS, RigidBody, "velocity"),
                                                 (Stage.CONTROL, Battery, "energy_j")])
def test_a_mod_writing_nan_is_disabled_and_the_last_good_state_restored(stage, kind, field):
    nan = WriteNaN(kind, field)
    good = Count()
    with lab(plugins=[Mod("nan", (nan, stage)), Mod("good", (good, Stage.GAMEPLAY))]) as sim:
        hover_and_cruise(sim, 1.0, power=0.5)
        t = sim.telemetry()
        assert all(math.isfinite(v) for v in (*t.position, *t.velocity, *t.quaternion, *t.rpm))
        assert math.isfinite(t.battery_energy_wh) and t.battery_fraction > 0.9
        assert t.position[2] == pytest.approx(20.0, abs=1.0) and t.armed
        assert nan.calls == 1 and good.frames == round(t.time * 60)
        assert len(sim.mod_problems) == 1
        line = sim.mod_problems[0]
        assert "'nan'" in line and "WriteNaN" in line and "non-finite" in line and field in line


class WriteNaNInto(esper.Processor):
    """Writes NaN into one drone's state only (not the player's)."""

    def __init__(self, kind, field):
        self.kind, self.field, self.entity, self.calls = kind, field, None, 0

    def process(self, dt):
        if self.entity is not None:
            self.calls += 1
            getattr(esper.component_for_entity(self.entity, self.kind), self.field)[1] = math.nan


@pytest.mark.parametrize("stage, kind, field", [(Stage.GAMEPLAY, RigidBody, "angular_velocity"),
                                                 (Stage.CONTROL, RigidBody, "velocity")])
def test_a_mod_writing_nan_into_any_drone_is_disabled_and_that_drone_restored(stage, kind, field):
    nan = WriteNaNInto(kind, field)
    with lab(plugins=[Mod("nan", (nan, stage))]) as sim:
        others = [sim.add_drone(position=(10.0 * i, 5.0, 20.0)) for i in range(1, 4)]
        for d in sim.drones:
            d.pad.rt = 0.5
        sim.run(1.0)
        nan.entity = others[1].entity  # the third drone, in the middle of the fleet
        sim.run(1.0)
        for d in sim.drones:
            t = d.telemetry()
            assert all(math.isfinite(v) for v in (*t.position, *t.velocity, *t.quaternion, *t.angular_velocity, *t.rpm))
            assert t.position[2] == pytest.approx(20.0, abs=1.0) and t.armed
        assert nan.calls == 1 and len(sim.mod_problems) == 1
        line = sim.mod_problems[0]
        assert "'nan'" in line and "non-finite" in line and field in line


def test_strict_mods_raise_on_nan_after_restoring():
    with lab(plugins=[Mod("nan", (WriteNaN(), Stage.GAMEPLAY))], strict_mods=True) as sim:
        with pytest.raises(gp.ModError, match="non-finite"):
            sim.step()
        assert all(math.isfinite(v) for v in sim.telemetry().position)


# -- a slow mod -------------------------------------------------------------------------------------
def test_a_slow_mod_is_named_once_with_its_cost(caplog):
    with caplog.at_level(logging.WARNING, logger="donify"), lab(plugins=[Mod("slow", (Sleep(), Stage.GAMEPLAY))]) as sim:
        sim.run(2.1)  # two one-second windows: reported after the first only
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("donify")]
    assert len(lines) == 1 and "'slow'" in lines[0] and "Sleep" in lines[0]
    cost_ms = float(lines[0].split(" ms")[0].split()[-1])
    assert 4.0 <= cost_ms < 40.0
    assert sim.mod_problems == lines


def test_a_fast_mod_is_not_reported(caplog):
    with caplog.at_level(logging.WARNING, logger="donify"), lab(plugins=[Mod("fast", (Count(), Stage.DYNAMICS))]) as sim:
        sim.run(1.5)
        assert sim.mod_problems == []
    assert not [r for r in caplog.records if r.name.startswith("donify")]


def test_no_mods_no_guard():
    with lab() as sim:
        assert sim.app.mods is None  # the hot path is the game's alone


# -- the command line -------------------------------------------------------------------------------
BROKEN_MOD = '''
import esper
from engine.stages import Stage

class Explode(esper.Processor):
    def process(self, dt):
        raise RuntimeError("kaboom")

class P:
    name = "exploder"
    def build(self, app):
        app.add_system(Explode(), Stage.GAMEPLAY)

plugin = P()
'''


@pytest.fixture
def user_data(tmp_path, monkeypatch):
    monkeypatch.setenv("DONIFY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(gp, "entry_points", lambda group: [])
    return tmp_path / "data"


def test_fly_with_mods_flies_and_reports_a_broken_one_in_one_line(tmp_path):
    """Through the real command (a subprocess): one line on stderr, no traceback, exit 0."""
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "exploder.py").write_text(BROKEN_MOD)
    env = {**os.environ, "DONIFY_DATA_DIR": str(tmp_path / "data"), "DONIFY_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "game.cli", "fly", "--mods", str(mods), "--script",
                           "examples/street_manual.toml", "--seconds", "2"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0 and "distance flown" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0] == "donify: mod 'exploder' disabled: system Explode (GAMEPLAY) raised RuntimeError: kaboom"


def test_fly_with_the_example_mods(capsys, user_data):
    code = cli.main(["fly", "--mods", str(EXAMPLE_MODS), "--script", str(ROOT / "examples" / "street_manual.toml"),
                     "--seconds", "2"])
    out, err = capsys.readouterr()
    assert code == 0 and "distance flown" in out and err == ""


def test_demo_takes_mods(tmp_path, capsys, caplog, user_data):
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "exploder.py").write_text(BROKEN_MOD)
    with caplog.at_level(logging.WARNING, logger="donify"):
        code = cli.main(["demo", "--mods", str(mods)])
    out, _ = capsys.readouterr()
    assert code == 0 and "demo flight" in out and "'exploder' disabled" in caplog.text


def test_strict_mods_on_the_command_line(tmp_path, capsys, user_data):
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "syntax.py").write_text("def broken(:\n")
    code = cli.main(["demo", "--mods", str(mods), "--strict-mods"])
    _, err = capsys.readouterr()
    assert code == 1 and len(err.strip().splitlines()) == 1 and "syntax.py" in err


@pytest.mark.parametrize("command", [["demo"], ["fly", "--script", "examples/street_manual.toml"], ["play", "--demo"]])
def test_a_mods_folder_that_does_not_exist_is_a_usage_error(tmp_path, capsys, command, user_data):
    code = cli.main([*command, "--mods", str(tmp_path / "nowhere")])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nowhere" in err


def test_user_data_mods_are_loaded_and_cwd_mods_are_not(tmp_path, capsys, caplog, monkeypatch, user_data):
    (user_data / "mods").mkdir(parents=True)
    (user_data / "mods" / "exploder.py").write_text(BROKEN_MOD)
    cwd = tmp_path / "cwd"
    (cwd / "mods").mkdir(parents=True)
    (cwd / "mods" / "other.py").write_text(BROKEN_MOD.replace("exploder", "cwd-mod"))
    monkeypatch.chdir(cwd)
    with caplog.at_level(logging.WARNING, logger="donify"):
        code = cli.main(["fly", "--script", str(ROOT / "examples" / "street_manual.toml"), "--seconds", "0.5"])
    capsys.readouterr()
    assert code == 0 and "'exploder' disabled" in caplog.text and "cwd-mod" not in caplog.text


# -- the example mods, flown ----------------------------------------------------------------------
def example(name):
    plugins, problems = gp.discover_mods(EXAMPLE_MODS, entry_point_mods=False)
    assert problems == []
    return next(p for p in plugins if p.name == name)


def test_every_example_mod_loads_and_flies():
    plugins, problems = gp.discover_mods(EXAMPLE_MODS, entry_point_mods=False)
    assert problems == [] and len(plugins) >= 2
    with Simulation(plugins=plugins) as sim:
        sim.select("takeoff")
        sim.run(4.0)
        assert sim.mod_problems == [] and sim.telemetry().position[2] > 1.0


def test_example_speed_warning_says_so_once_when_fast():
    mod = example("speed-warning")
    with lab(plugins=[mod]) as sim:
        messages = Messages(sim.app)
        hover_and_cruise(sim, 4.0, power=0.5)  # 4 m/s: under the threshold
        assert messages.lines == []
        sim.pad.rt = 1.0
        sim.run(1.0)  # MotorPower 1: 8 m/s
        sim.pad.rt = 0.0
        sim.run(4.0)
        assert len(messages.lines) == 1 and "6 m/s" in messages.lines[0]


def test_example_tether_holds_the_drone_near_its_anchor():
    def flown(plugins):
        with lab(plugins=plugins) as sim:
            hover_and_cruise(sim, 6.0)  # MotorPower 0.5: asked 4 m/s forward, for 6 s
            assert sim.mod_problems == []
            return sim.telemetry().position

    free = flown([])
    tethered = flown([example("tether")])
    assert math.dist(free[:2], (0.0, 0.0)) > 20.0
    tether = example("tether")
    assert math.dist(tethered[:2], (0.0, 0.0)) < tether.length_m + 2.0


def test_example_orbit_adds_a_mode_that_circles():
    mod = example("orbit")
    with lab(plugins=[mod]) as sim:
        sim.pad.rt = 1.0
        sim.run(0.5)  # armed
        sim.pad.rt = 0.0
        sim.run(2.0)
        start_z = sim.telemetry().position[2]
        sim.select("orbit")  # the mod's menu entry
        sim.run(8.0)  # onto the circle
        samples = []
        for _ in range(10 * 60):  # ten more seconds: more than one lap (2π · 3 m / 2 m/s ≈ 9.4 s)
            sim.step()
            samples.append(sim.telemetry())
        assert sim.mod_problems == [] and {t.mode for t in samples} == {"orbit"}
        centre = mod.system.centre
        radii = [math.dist(t.position[:2], centre) for t in samples]
        speeds = [math.hypot(*t.velocity[:2]) for t in samples]
        assert max(abs(r - 3.0) for r in radii) < 0.5
        assert max(abs(v - 2.0) for v in speeds) < 0.3
        assert max(abs(t.position[2] - start_z) for t in samples) < 0.3
        sim.set_mode("manual")  # the motion goes on, as after any mode: now in a straight line
        sim.run(1.0)
        before = sim.telemetry()
        sim.run(2.0)
        after = sim.telemetry()
        turned = math.atan2(after.velocity[1], after.velocity[0]) - math.atan2(before.velocity[1], before.velocity[0])
        assert after.mode == "manual" and abs(math.remainder(turned, math.tau)) < math.radians(3.0)
