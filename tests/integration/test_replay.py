"""Replays: a flight's inputs, flown again headless, give bit-identical telemetry — for every
example script in every shipped level, with jittered frames, random pads and every headless verb;
a replay of another level version, vehicle, Donify version or mod set is refused in one line;
a damaged file is one located line, never a traceback."""

from __future__ import annotations

import gzip
import json
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import game.replay as replay_module
from engine.datafile import DataFileError
from game import cli
from game.fly import fly_replay
from game.replay import Recorder, load_replay
from game.simulation import Simulation
from systems.menu import Menu
from world.level_file import shipped_levels

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
CI_SECONDS = 15.0
BUTTONS = ("A", "B", "X", "Y", "LB", "RB", "LS", "RS", "START", "BACK")


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("level", shipped_levels())
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_script_replays_bit_identically_in_every_level(example, level, tmp_path, capsys):
    original, again, rec = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "r.replay"
    code = cli.main(["fly", "--script", str(example), "--level", level, "--seconds", str(CI_SECONDS),
                     "--telemetry", str(original), "--record", str(rec)])
    assert code == 0, capsys.readouterr().err
    code = cli.main(["replay", str(rec), "--telemetry", str(again)])
    assert code == 0, capsys.readouterr().err
    assert original.read_bytes() == again.read_bytes()
    assert len(lines(again)) == round(CI_SECONDS * 60)


def fly_randomly(sim: Simulation, rng: random.Random, seconds: float) -> list[dict]:
    """A player with jittered frames, random sticks and triggers, button presses, menu entries,
    mode changes, Restarts and weather changes."""
    out = []
    while sim.time < seconds:
        pad = sim.pad
        if rng.random() < 0.2:
            pad.left = (rng.uniform(-1, 1), rng.uniform(-1, 1))
            pad.right = (rng.uniform(-1, 1), rng.uniform(-1, 1))
            pad.rt, pad.lt = rng.choice((0.0, rng.random())), rng.choice((0.0, rng.random()))
        if rng.random() < 0.05:
            button = rng.choice(BUTTONS)
            (pad.release if pad.is_held(button) else pad.press)(button)
        if rng.random() < 0.01:
            sim.select(rng.choice(sim.app.resource(Menu).ids()))
        if rng.random() < 0.005:
            sim.set_mode(rng.choice(("angle", "acro", "manual")))
        if rng.random() < 0.003:
            sim.reset()
        if rng.random() < 0.005:
            sim.set_weather(wind=(rng.uniform(-5, 5), rng.uniform(-5, 5), 0.0), gusts=rng.choice((0.0, 1.0)))
        sim.step(rng.uniform(1 / 144, 1 / 30) if rng.random() < 0.98 else rng.uniform(0.1, 0.4))
        out.append(sim.telemetry().as_dict())
    return out


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), level=st.sampled_from(["street", "field"]))
def test_a_random_jittered_flight_with_every_verb_replays_bit_identically(seed, level, tmp_path):
    rng = random.Random(seed)
    with Simulation(level, seed=seed % 1000) as sim:
        recorder = sim.record()
        flown = fly_randomly(sim, rng, 12.0)
    path = tmp_path / f"{seed}.replay"
    recorder.recording.save(path)
    telemetry = tmp_path / f"{seed}.jsonl"
    fly_replay(path, telemetry=telemetry)
    again = [json.loads(line) for line in lines(telemetry)]
    assert again == flown  # every field of every frame, floats compared exactly


def test_a_ten_minute_flight_of_restless_inputs_is_well_under_5_mb(tmp_path):
    """The worst case for the encoding: sticks, triggers and frame length changing every frame."""
    rng = random.Random(3)

    class Pad:
        held: set
        presses: list

    recorder = Recorder({"format": "donify-replay", "version": 1, "donify": "x", "level": None,
                         "vehicle": {}, "simulation": {}, "mods": []})
    pad = Pad()
    for _ in range(10 * 60 * 60):
        pad.left, pad.right = (rng.uniform(-1, 1), rng.uniform(-1, 1)), (rng.uniform(-1, 1), rng.uniform(-1, 1))
        pad.lt, pad.rt = rng.random(), rng.random()
        pad.held, pad.presses = {rng.choice(BUTTONS)}, [rng.choice(BUTTONS)]
        recorder.frame(pad, rng.uniform(1 / 144, 1 / 30))
    path = tmp_path / "long.replay"
    recorder.recording.save(path)
    assert path.stat().st_size < 5 * 1024 * 1024
    assert len(load_replay(path).frames) == 36000


def recorded(tmp_path, level="field", **kwargs) -> Path:
    with Simulation(level, **kwargs) as sim:
        recorder = sim.record()
        sim.pad.rt = 1.0
        sim.run(1.0)
    path = tmp_path / "flight.replay"
    recorder.recording.save(path)
    return path


def test_a_replay_of_another_level_version_is_refused_in_one_line(tmp_path, capsys):
    level_dir = tmp_path / "field"
    shutil.copytree(ROOT / "levels" / "field", level_dir)
    path = recorded(tmp_path, level=str(level_dir))
    text = (level_dir / "level.toml").read_text()
    (level_dir / "level.toml").write_text("# a comment changes nothing flown\n" + text)
    assert fly_replay(path).frames == 60  # still the same level: accepted
    (level_dir / "level.toml").write_text(text.replace('position = [30.0, 10.0]', 'position = [31.0, 10.0]', 1))
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refused: the level differs" in err[0] and str(path) in err[0]


def test_a_replay_of_another_vehicle_or_version_or_mod_set_is_refused(tmp_path, monkeypatch):
    path = recorded(tmp_path)
    vehicle = tmp_path / "heavy.toml"
    source = (ROOT / "assets" / "vehicles" / "tello.toml").read_text()
    header = json.loads(gzip.open(path, "rt").readline())
    assert "mass" in source
    vehicle.write_text(source.replace("value = 0.087", "value = 0.090", 1))
    made = dict(header["simulation"], vehicle=str(vehicle))
    forged = tmp_path / "forged.replay"
    with gzip.open(path, "rt") as f:
        body = f.readlines()[1:]
    with gzip.open(forged, "wt") as f:
        f.write(json.dumps(dict(header, simulation=made)) + "\n")
        f.writelines(body)
    with pytest.raises(DataFileError, match="the vehicle differs"):
        fly_replay(forged)
    monkeypatch.setattr(replay_module, "donify_version", lambda: "9.9.9")
    with pytest.raises(DataFileError, match="Donify's version differs"):
        fly_replay(path)
    monkeypatch.undo()

    class Nothing:
        name = "nothing"

        def build(self, app):
            pass

    with pytest.raises(DataFileError, match="the mods differ"):
        fly_replay(path, plugins=[Nothing()])


@pytest.mark.parametrize("damage, expected", [
    (lambda b: b[: len(b) // 2], "expected a gzip-compressed Donify replay"),
    (lambda b: b"not gzip at all", "expected a gzip-compressed Donify replay"),
    (lambda b: gzip.compress(b'{"format": "other"}\n'), "expected a Donify replay"),
    (lambda b: gzip.compress(gzip.decompress(b).rsplit(b"\n", 30)[0] + b"\n"), "the file is cut short"),
    (lambda b: gzip.compress(gzip.decompress(b).replace(b'"dt":', b'"dt":-', 1)), "dt: expected a number of seconds > 0"),
])
def test_a_damaged_replay_is_one_located_line(tmp_path, capsys, damage, expected):
    path = recorded(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0] and err[0].startswith(str(path)), err


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=2000), compress=st.booleans())
def test_random_bytes_are_refused_as_data_never_a_crash(tmp_path, data, compress):
    path = tmp_path / "random.replay"
    path.write_bytes(gzip.compress(data) if compress else data)
    with pytest.raises(DataFileError):
        load_replay(path)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                    | st.text(max_size=12), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
ARGUMENT_NAMES = ("name", "mode", "preset", "wind", "density", "gusts", "rain", "level", "sha256", "position",
                  "yaw_deg", "vehicle", "colour")
GOOD_VALUES = ("takeoff", "angle", "breeze", "street", [1.0, 2.0, 3.0], [9.0, 14.0, 4.0], [3.0, 0.0, 0.0205], 45.0,
               0.5, 1.2, None)
CALL = st.one_of(
    st.tuples(st.sampled_from(replay_module.VERBS),
              st.dictionaries(st.sampled_from(ARGUMENT_NAMES), st.sampled_from(GOOD_VALUES) | JSON, max_size=3)).map(list),
    JSON,  # not a [verb, arguments] pair at all
)


def _one_line_or_flown(capsys, path: Path) -> None:
    code = cli.main(["replay", str(path)])
    err = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith("replay")]
    assert code in (0, 1), (code, err)
    if code == 1:
        assert len(err) == 1 and err[0].startswith(f"{path}:"), err
        event("refused: " + " ".join(re.sub(r"\d+", "N", err[0][len(str(path)):]).split()[:3]))  # where it was caught
    else:
        event("flown")


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=st.lists(CALL, min_size=1, max_size=3), frame=st.integers(0, 59))
def test_a_replays_calls_edited_into_anything_fly_or_are_one_located_line(tmp_path_factory, capsys, calls, frame):
    """A hand-edited or damaged frame's `calls` — unknown arguments, wrong types, a drone put in
    a building, a menu entry that does not exist — is refused as the file's line, never a traceback."""
    path = recorded(tmp_path_factory.mktemp("calls"))
    header, *frames = gzip.decompress(path.read_bytes()).decode().splitlines()
    line = json.loads(frames[frame])
    line["calls"] = calls
    frames[frame] = json.dumps(line)
    path.write_bytes(gzip.compress(("\n".join([header, *frames]) + "\n").encode()))
    _one_line_or_flown(capsys, path)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["seed", "density", "wind", "position", "yaw_deg", "vehicle", "level"]),
       value=st.sampled_from(GOOD_VALUES) | JSON)
def test_a_replays_header_edited_into_anything_is_one_located_line(tmp_path_factory, capsys, key, value):
    path = recorded(tmp_path_factory.mktemp("header"))
    header, *frames = gzip.decompress(path.read_bytes()).decode().splitlines()
    made = json.loads(header)
    made["simulation"][key] = value
    path.write_bytes(gzip.compress(("\n".join([json.dumps(made), *frames]) + "\n").encode()))
    _one_line_or_flown(capsys, path)


def test_recording_starts_before_the_first_frame():
    with Simulation(level=None) as sim:
        sim.step()
        with pytest.raises(ValueError, match="before the first frame"):
            sim.record()


def _cruise_into_a_drone(sim, obstacle: bool) -> list[dict]:
    """Climb, cruise forward at 4 m/s; once 4 m along, a drone (motors off) is put 0.3 m ahead
    at the same height, if `obstacle`: the player reaches it before it has fallen away."""
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.pad.press("Y")
    sim.run(0.5)
    sim.pad.release("Y")
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    while sim.telemetry().position[0] < 4.0:
        sim.step()
    if obstacle:
        x, y, z = sim.telemetry().position
        sim.add_drone(position=(x + 0.3, y, z), yaw_deg=180.0)
    flown = []
    for _ in range(60):
        sim.step()
        flown.append(sim.telemetry().as_dict())
    return flown


def test_drones_added_while_recording_are_added_again_by_the_replay(tmp_path):
    """A drone put in the player's way is part of the flight: the player runs into it, and the
    replay (which adds it again at the same place) runs into it the same way, to the bit."""
    with Simulation("street", seed=4) as sim:
        recorder = sim.record()
        flown = _cruise_into_a_drone(sim, obstacle=True)
    with Simulation("street", seed=4) as sim:
        unobstructed = _cruise_into_a_drone(sim, obstacle=False)
    assert flown[-1]["position"] != unobstructed[-1]["position"]  # the drone in the way mattered
    path = tmp_path / "drones.replay"
    recorder.recording.save(path)
    telemetry = tmp_path / "drones.jsonl"
    fly_replay(path, telemetry=telemetry)
    again = [json.loads(line) for line in lines(telemetry)]
    assert again[-60:] == flown
