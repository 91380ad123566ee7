"""`donify fly` and `donify plot`: every example script flown, one JSON record per frame with
the field names of docs/api.md#telemetry, atomic output, the summary, the plot, and bad input reported
in one line with the right exit code (in-process through game.cli.main, plus one subprocess
run to see there is no traceback)."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli
from game.fly import fly
from game.plot import PLOT_SIZE_PX
from game.script import load_script, parse_script
from game.simulation import Simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
FRAME_S = 1.0 / 60.0
CI_SECONDS = 30.0  # flown per example here: all but the mission in full; the mission to its first waypoint

# docs/api.md#telemetry: the field names are fixed
TELEMETRY_FIELDS = {
    "time", "mode", "armed", "motor_power", "position", "velocity", "quaternion", "roll_deg", "pitch_deg",
    "yaw_deg", "angular_velocity", "rpm", "thrust", "target_velocity", "target_altitude", "height_above_ground",
    "contact", "battery_fraction", "battery_energy_wh", "battery_voltage", "power_w", "damage", "trail_points",
    "mission", "landing_refused",
    "crashed", "course",
}
VECTOR_SIZES = {"position": 3, "velocity": 3, "quaternion": 4, "angular_velocity": 3, "rpm": 4, "thrust": 4,
                "target_velocity": 3}


def run(argv, capsys) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def read_jsonl(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def only_file(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# -- every example flies --------------------------------------------------------------------
def test_the_examples_folder_has_the_four_flights():
    names = {p.name for p in EXAMPLES}
    assert {"street_manual.toml", "street_takeoff_landing.toml", "street_mission.toml", "field_hop.toml"} <= names
    levels = {load_script(p).level for p in EXAMPLES}
    assert {"street", "field"} <= levels


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_flies_and_writes_one_record_per_frame(example, tmp_path, capsys):
    script = load_script(example)
    seconds = min(script.seconds, CI_SECONDS)
    out = tmp_path / "out.jsonl"
    code, stdout, stderr = run(["fly", "--script", example, "--seconds", seconds, "--telemetry", out], capsys)
    assert code == 0, stderr
    assert stderr == ""  # no warnings, and no progress bar when stderr is not a terminal
    records = read_jsonl(out)
    frames = math.ceil(seconds / FRAME_S - 1e-9)
    assert len(records) == frames
    for i, rec in enumerate(records):
        assert set(rec) == TELEMETRY_FIELDS
        assert rec["time"] == pytest.approx((i + 1) * FRAME_S, abs=1e-9)
    last = records[-1]
    for name, size in VECTOR_SIZES.items():
        assert len(last[name]) == size and all(isinstance(v, float) for v in last[name]), name
    assert isinstance(last["armed"], bool) and isinstance(last["contact"], bool) and isinstance(last["mode"], str)
    assert {"status", "waypoint_index"} <= set(last["mission"])
    assert only_file(tmp_path) == ["out.jsonl"]  # no temporary file left beside it
    for label in ("distance flown", "max speed", "energy used", "contacts", "damage", "mission", "final mode"):
        assert label in stdout
    assert f"{frames} records in {out}" in stdout


# -- the summary against the records ----------------------------------------------------------
CRUISE = """
level = "street"
[[timeline]]
at = 0.0
rt = 1.0            # MotorPower 0 -> 0.5 (docs/model.md#stabilised-manual-flight: 0.5 per second at full trigger)
for = 1.0
[[timeline]]
at = 1.0
hold = "Y"
for = 1.5
[[timeline]]
at = 3.0
left = [0.0, 1.0]
for = 0.2
"""


def test_summary_matches_the_telemetry_and_the_model(tmp_path):
    out = tmp_path / "cruise.jsonl"
    summary = fly(parse_script(CRUISE, tmp_path / "cruise.toml"), seconds=9.0, telemetry=out)
    records = read_jsonl(out)
    assert summary.frames == len(records) == 540
    positions = [r["position"] for r in records]
    start = Simulation(level="street")
    try:
        baseline = start.telemetry().as_dict()
    finally:
        start.close()
    path = [baseline["position"], *positions]
    assert summary.distance_m == pytest.approx(sum(math.dist(a, b) for a, b in zip(path, path[1:])))
    # the cruise asked is 8 m/s × MotorPower 0.5 = 4 m/s (docs/model.md#stabilised-manual-flight); the climb 2 m/s
    assert records[-1]["motor_power"] == pytest.approx(0.5, abs=1e-6)
    assert summary.max_horizontal_speed_m_s == pytest.approx(4.0, abs=0.15)
    assert max(r["velocity"][2] for r in records) == pytest.approx(2.0, abs=0.1)
    # energy used is the pack's loss, which is the integral of the power drawn
    used = baseline["battery_energy_wh"] - records[-1]["battery_energy_wh"]
    assert summary.energy_used_wh == pytest.approx(used)
    assert used == pytest.approx(sum(r["power_w"] for r in records) * FRAME_S / 3600.0, rel=0.02)
    assert summary.contacts == 0 and summary.damage == 0.0  # lifted off the pad, touched nothing
    assert summary.final_mode == "manual" and summary.armed
    assert summary.mission == records[-1]["mission"]


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path):
    class Terminal:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    script = parse_script("[[timeline]]\nat = 0.0\nrt = 1.0\n", tmp_path / "s.toml")
    terminal = Terminal()
    fly(script, seconds=0.5, progress=terminal)
    assert "flying" in terminal.text and "frame" in terminal.text


def test_an_unknown_menu_entry_is_an_error_before_flying(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('level = "street"\n[[timeline]]\nat = 1.0\nselect = "weather:monsoon"\n')
    out = tmp_path / "out.jsonl"
    code, stdout, stderr = run(["fly", "--script", path, "--seconds", 2, "--telemetry", out], capsys)
    assert code == 1 and stdout == ""
    assert stderr.startswith(f"{path}:4: timeline.0.select: expected a menu entry offered here (")
    assert stderr.rstrip().endswith("got 'weather:monsoon'") and stderr.count("\n") == 1
    assert not out.exists()


def test_the_script_header_sets_level_weather_and_seed(tmp_path):
    script = parse_script('level = "field"\nseed = 3\n[weather]\npreset = "breeze"\n'
                          '[[timeline]]\nat = 0.0\nselect = "air:hot_day"\n', tmp_path / "s.toml")
    out = tmp_path / "out.jsonl"
    fly(script, seconds=0.5, telemetry=out)
    assert len(read_jsonl(out)) == 30


# -- atomic output ----------------------------------------------------------------------------
def test_an_interrupted_run_leaves_no_partial_file_and_keeps_an_older_one(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out.jsonl"
    frames = {"n": 0}
    real_step = Simulation.step

    def step_then_interrupt(self, dt=FRAME_S):
        frames["n"] += 1
        if frames["n"] == 30:
            raise KeyboardInterrupt
        real_step(self, dt)

    monkeypatch.setattr(Simulation, "step", step_then_interrupt)
    example = ROOT / "examples" / "street_manual.toml"
    code, _, _ = run(["fly", "--script", example, "--seconds", 2, "--telemetry", out], capsys)
    assert code == 130
    assert only_file(tmp_path) == []  # neither the output nor a temporary file

    out.write_text("older complete file\n")
    frames["n"] = 0
    code, _, _ = run(["fly", "--script", example, "--seconds", 2, "--telemetry", out], capsys)
    assert code == 130
    assert out.read_text() == "older complete file\n" and only_file(tmp_path) == ["out.jsonl"]


def test_a_failed_run_leaves_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"

    def broken_step(self, dt=FRAME_S):
        raise RuntimeError("a fault in the flight core")

    monkeypatch.setattr(Simulation, "step", broken_step)
    with pytest.raises(RuntimeError):
        fly(load_script(ROOT / "examples" / "street_manual.toml"), seconds=1.0, telemetry=out)
    assert only_file(tmp_path) == []


# -- bad input: one line, the right exit code --------------------------------------------------
def test_fly_bad_arguments_and_files(tmp_path, capsys):
    good = ROOT / "examples" / "street_manual.toml"
    bad_script = tmp_path / "bad.toml"
    bad_script.write_text('[[timeline]]\nat = 1.0\npress = "Z"\n\n[[timeline]]\nat = 2.0\nrt = 2\n')
    cases = [  # argv, exit code, start of stderr, number of lines
        (["fly"], 2, "donify: fly: expected --script FILE", 1),
        (["fly", "--script", good, "--seconds", "soon"], 2, "donify: fly: --seconds: expected a number of seconds > 0", 1),
        (["fly", "--script", good, "--seconds", "0"], 2, "donify: fly: --seconds: expected", 1),
        (["fly", "--script", good, "--seconds", "nan"], 2, "donify: fly: --seconds: expected", 1),
        (["fly", "--script", good, "--seed", "-3"], 2, "donify: fly: --seed: expected a whole number from 0 to 2**63 - 1, got '-3'", 1),
        (["fly", "--script", good, "--telemetry", tmp_path / "no" / "out.jsonl"], 2,
         f"donify: fly: --telemetry {tmp_path / 'no' / 'out.jsonl'}: expected a file in an existing directory", 1),
        (["fly", "--script", good, "--telemetry", tmp_path], 2, f"donify: fly: --telemetry {tmp_path}: expected a file path", 1),
        (["fly", "--script", tmp_path / "absent.toml"], 1, f"{tmp_path / 'absent.toml'}: file not found", 1),
        (["fly", "--script", bad_script], 1, f"{bad_script}:3: timeline.0.press: expected a button", 2),
        (["fly", "--script", good, "--level", "atlantis"], 1, "atlantis: expected a shipped level name", 1),
    ]
    for argv, code, start, count in cases:
        got, stdout, stderr = run(argv, capsys)
        assert got == code, (argv, stderr)
        assert stderr.startswith(start), (argv, stderr)
        assert stderr.count("\n") == count and "Traceback" not in stderr, (argv, stderr)
        assert stdout == ""
    assert only_file(tmp_path) == ["bad.toml"]


# -- the plot -----------------------------------------------------------------------------------
def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_plot_of_a_real_flight(tmp_path, capsys):
    flight = tmp_path / "flight.jsonl"
    script = ROOT / "examples" / "street_manual.toml"
    assert run(["fly", "--script", script, "--seconds", 18, "--telemetry", flight], capsys)[0] == 0
    image = tmp_path / "flight.png"
    code, stdout, stderr = run(["plot", flight, "-o", image], capsys)
    assert code == 0, stderr
    assert png_size(image) == PLOT_SIZE_PX == (1200, 1000)
    assert image.stat().st_size > 20_000  # five panels of curves, not a blank canvas
    assert f"{image}: 1080 records plotted" in stdout
    assert sorted(only_file(tmp_path)) == ["flight.jsonl", "flight.png"]
    keep = os.environ.get("DONIFY_KEEP_PLOT")  # to look at it: DONIFY_KEEP_PLOT=/tmp/flight.png
    if keep:
        Path(keep).write_bytes(image.read_bytes())
    # the default output name is the input's with .png
    assert run(["plot", flight], capsys)[0] == 0
    assert png_size(tmp_path / "flight.png") == PLOT_SIZE_PX


def test_plot_bad_inputs(tmp_path, capsys):
    rec = {"time": 0.0, "position": [0, 0, 1], "velocity": [0, 0, 0], "target_velocity": [0, 0, 0],
           "target_altitude": 1.0, "height_above_ground": None, "rpm": [0, 0, 0, 0], "thrust": [0, 0, 0, 0],
           "battery_voltage": 4.3, "power_w": 2.5}
    good_line = json.dumps(rec)
    files = {
        "empty.jsonl": ("", "empty.jsonl:1: expected telemetry records"),
        "blank.jsonl": ("\n\n", "blank.jsonl:1: expected telemetry records"),
        "truncated.jsonl": (good_line + "\n" + good_line[:40], "truncated.jsonl:2: expected one JSON telemetry record a "
                            "line, got invalid JSON"),
        "garbage.jsonl": ("hello\n", "garbage.jsonl:1: expected one JSON telemetry record a line, got invalid JSON"),
        "array.jsonl": (good_line + "\n[1, 2]\n", "array.jsonl:2: expected a telemetry record (a JSON object), got a list of 2"),
        "missing.jsonl": (json.dumps({k: v for k, v in rec.items() if k != "rpm"}) + "\n",
                          "missing.jsonl:1: rpm: expected a telemetry field"),
        "short.jsonl": (json.dumps({**rec, "thrust": [1, 2]}) + "\n", "short.jsonl:1: thrust: expected 4 numbers, got a list of 2"),
        "text.jsonl": (json.dumps({**rec, "power_w": "high"}) + "\n", "text.jsonl:1: power_w: expected a number, got 'high'"),
    }
    for name, (text, expected) in files.items():
        (tmp_path / name).write_text(text)
    for name, (_, expected) in files.items():
        code, stdout, stderr = run(["plot", tmp_path / name, "-o", tmp_path / "p.png"], capsys)
        assert code == 1, (name, stderr)
        assert stderr.startswith(f"{tmp_path}/{expected}"), (name, stderr)
        assert stderr.count("\n") == 1 and "Traceback" not in stderr and stdout == ""
    assert "truncated" in run(["plot", tmp_path / "truncated.jsonl", "-o", tmp_path / "p.png"], capsys)[2]
    code, _, stderr = run(["plot", tmp_path / "absent.jsonl", "-o", tmp_path / "p.png"], capsys)
    assert (code, stderr) == (1, f"{tmp_path / 'absent.jsonl'}: file not found\n")
    (tmp_path / "ok.jsonl").write_text(good_line + "\n")
    for output, start in ((tmp_path / "p.gif", "donify: plot: -o"), (tmp_path / "nodir" / "p.png", "donify: plot: -o")):
        code, _, stderr = run(["plot", tmp_path / "ok.jsonl", "-o", output], capsys)
        assert code == 2 and stderr.startswith(start) and stderr.count("\n") == 1, stderr
    assert not (tmp_path / "p.png").exists() and not (tmp_path / "p.gif").exists()


# -- one real process: no traceback ----------------------------------------------------------------
def test_a_real_process_reports_a_bad_script_in_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('seconds = "long"\n[[timeline]]\nat = 1.0\ntap = "X"\n')
    env = {**os.environ, "PYGLET_HEADLESS": "1"}
    done = subprocess.run([sys.executable, "-m", "game.cli", "fly", "--script", str(bad), "--telemetry",
                           str(tmp_path / "out.jsonl")], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 1
    assert done.stderr == f"{bad}:1: seconds: expected a duration in seconds > 0 and ≤ 86400, got 'long'\n"
    assert done.stdout == "" and not (tmp_path / "out.jsonl").exists()
