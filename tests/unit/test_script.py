"""Flight scripts (game/script.py): validation with located one-line errors, and the player's
timing and semantics on a stand-in simulation (a Pad and a select)."""

from __future__ import annotations

import re
import textwrap

import pytest

from components.pilot import Pad
from engine.datafile import DataFileError
from game.fly import FlightSummary
from game.script import ScriptPlayer, load_script, parse_script

FRAME_S = 1.0 / 60.0
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<key>[\w.]+): expected .+, got .+$")


def errors_of(text: str, path: str = "flight.toml") -> list[str]:
    with pytest.raises(DataFileError) as info:
        parse_script(textwrap.dedent(text), path)
    lines = info.value.lines
    assert lines, "a DataFileError always carries its lines"
    return lines


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line of `text` containing `needle`."""
    return next(i for i, line in enumerate(textwrap.dedent(text).splitlines(), start=1) if needle in line)


# -- a valid script --------------------------------------------------------------------------
def test_valid_script_parses_every_action():
    script = parse_script(textwrap.dedent("""
        description = "all actions"
        level = "street"
        seed = 7
        seconds = 12.5

        [weather]
        preset = "breeze"
        wind = [1.0, -2, 0.5]
        density = 1.1
        gusts = 0.4

        [[timeline]]
        at = 0
        rt = 1
        for = 1.0

        [[timeline]]
        at = 1.0
        hold = ["Y", "LS"]
        for = 2

        [[timeline]]
        at = 1.0
        press = "A"
        left = [-0.5, 1]
        right = [0.25, 0.0]
        lt = 0.5

        [[timeline]]
        at = 4
        release = ["A"]
        tap = "X"
        select = "weather:breeze"
        note = "several things at once"
    """))
    header = script.header
    assert (header.level, header.seed, header.seconds) == ("street", 7, 12.5)
    assert header.weather.wind == (1.0, -2.0, 0.5) and header.weather.density == 1.1 and header.weather.gusts == 0.4
    assert [e.at for e in script.entries] == [0.0, 1.0, 1.0, 4.0]
    first, second, third, fourth = script.entries
    assert first.rt == 1.0 and first.duration == 1.0
    assert second.hold == ("Y", "LS")
    assert third.left == (-0.5, 1.0) and third.right == (0.25, 0.0) and third.lt == 0.5 and third.press == ("A",)
    assert fourth.release == ("A",) and fourth.tap == ("X",) and fourth.select == "weather:breeze"
    assert script.seconds == 12.5
    assert script.selections() == [(3, "weather:breeze")]


def test_default_length_is_two_seconds_past_the_last_action():
    script = parse_script("[[timeline]]\nat = 3.0\nhold = 'Y'\nfor = 1.5\n")
    assert script.end_s == pytest.approx(4.5)
    assert script.seconds == pytest.approx(6.5)
    assert script.level is None and script.header.seed == 0


def test_a_level_path_is_relative_to_the_script(tmp_path):
    path = tmp_path / "sub" / "flight.toml"
    path.parent.mkdir()
    path.write_text('level = "../levels/mine/level.toml"\n[[timeline]]\nat = 0\ntap = "X"\n')
    assert load_script(path).level == str((tmp_path / "levels" / "mine" / "level.toml").resolve())
    path.write_text('level = "field"\n[[timeline]]\nat = 0\ntap = "X"\n')
    assert load_script(path).level == "field"


# -- located errors --------------------------------------------------------------------------
BAD = """
    level = "street"
    speed = 3
    seed = 1.5

    [weather]
    wind = [1, 2]
    density = "thick"

    [[timeline]]
    at = 0.0
    rt = 1.5

    [[timeline]]
    at = -1
    press = "Z"

    [[timeline]]
    at = "2"
    left = 1.0

    [[timeline]]
    at = 3.0
    hold = "Y"
    jump = true

    [[timeline]]
    at = 4.0
    release = ["A", "Start"]
    select = 12
"""


def test_every_problem_is_reported_at_once_each_on_its_own_located_line():
    lines = errors_of(BAD)
    expected = {  # key path → the text of the line it must point at
        "speed": "speed = 3",
        "seed": "seed = 1.5",
        "weather.wind": "wind = [1, 2]",
        "weather.density": 'density = "thick"',
        "timeline.0.rt": "rt = 1.5",
        "timeline.1.at": "at = -1",
        "timeline.1.press": 'press = "Z"',
        "timeline.2.at": 'at = "2"',
        "timeline.2.left": "left = 1.0",
        "timeline.3.hold": 'hold = "Y"',
        "timeline.3.jump": "jump = true",
        "timeline.4.release": 'release = ["A", "Start"]',
        "timeline.4.select": "select = 12",
    }
    found = {}
    for line in lines:
        m = LINE.match(line)
        assert m, f"not a located one-line error: {line!r}"
        assert m["file"] == "flight.toml"
        assert "\n" not in line and "Traceback" not in line
        found[m["key"]] = int(m["line"])
    assert set(found) == set(expected)
    for key, text in expected.items():
        assert found[key] == line_of(BAD, text), key
    assert [int(LINE.match(x)["line"]) for x in lines] == sorted(int(LINE.match(x)["line"]) for x in lines)


@pytest.mark.parametrize("entry, key, words", [
    ('press = "Z"', "press", ["a button", "A B X Y LB RB LS RS START BACK", "got 'Z'"]),
    ('tap = ["X", "x"]', "tap", ["a button", "got a list of 2"]),
    ("press = []", "press", ["a button", "or a list of buttons"]),
    ('hold = "Y"', "hold", ["`for = seconds`"]),
    ("rt = 1.2", "rt", ["from 0 to 1", "got 1.2"]),
    ('lt = "full"', "lt", ["from 0 to 1", "got 'full'"]),
    ("rt = true", "rt", ["from 0 to 1", "got True"]),
    ("left = [0.0, 2.0]", "left", ["[x, y]", "each from -1 to 1", "not 2.0"]),
    ("right = [0.5]", "right", ["[x, y]"]),
    ("left = 1", "left", ["[x, y]", "got 1"]),
    ('select = "Mission!"', "select", ["a menu entry id", "mission", "got 'Mission!'"]),
    ("select = 3", "select", ["a menu entry id"]),
    ('press = "A"\nfor = 1.0', "for", ["only with hold, left, right, lt or rt", "with press"]),
    ('hold = "Y"\nfor = 0', "for", ["> 0", "got 0"]),
    ('hold = "Y"\nfor = -2.0', "for", ["> 0"]),
    ('press = "A"\nrelease = "A"', "release", ["each button once per entry", "A in both press and release"]),
    ("note = 'nothing'", "at", ["at least one action"]),
    ("tap = 'X'\nhop = 1", "hop", ["no such key", "unknown key"]),
])
def test_one_bad_entry_gives_one_line_at_its_key(entry, key, words):
    text = f"[[timeline]]\nat = 0.5\n{entry}\n"
    lines = errors_of(text)
    assert len(lines) == 1, lines
    m = LINE.match(lines[0])
    assert m and m["key"] == f"timeline.0.{key}", lines[0]
    assert int(m["line"]) == line_of(text, key if key != "at" else "at ="), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("at, words", [
    ("-0.5", ["a time in seconds from 0", "got -0.5"]),
    ('"1.0"', ["a time in seconds", "got '1.0'"]),
    ("nan", ["a time in seconds", "got nan"]),
    ("inf", ["a time in seconds", "got inf"]),
    ("1e9", ["to 86400"]),
    ("true", ["a time in seconds", "got True"]),
])
def test_bad_times(at, words):
    lines = errors_of(f"[[timeline]]\nat = {at}\ntap = 'X'\n")
    assert len(lines) == 1 and lines[0].startswith("flight.toml:2: timeline.0.at: expected "), lines
    for word in words:
        assert word in lines[0]


def test_a_missing_time_and_entries_out_of_order():
    text = "[[timeline]]\ntap = 'X'\n\n[[timeline]]\nat = 5.0\ntap = 'B'\n\n[[timeline]]\nat = 2.0\ntap = 'X'\n"
    lines = errors_of(text)
    assert lines[0] == "flight.toml:1: timeline.0.at: expected a value, got nothing (missing key)"
    assert lines[1] == ("flight.toml:9: timeline.2.at: expected a time ≥ 5 s (entries in time order; timeline.1 is at "
                        "5 s), got 2")


@pytest.mark.parametrize("text, expected", [
    ("", "flight.toml:1: timeline: expected [[timeline]] entries"),
    ("timeline = 3\n", "flight.toml:1: timeline: expected [[timeline]] tables, got 3"),
    ("timeline = []\n", "flight.toml:1: timeline: expected at least one entry, got none"),
    ('seconds = 0\n[[timeline]]\nat = 0\ntap = "X"\n', "flight.toml:1: seconds: expected a duration in seconds > 0"),
    ('seed = "a"\n[[timeline]]\nat = 0\ntap = "X"\n', "flight.toml:1: seed: expected a whole number from 0 to 2**63 - 1, got 'a'"),
    ('level = 5\n[[timeline]]\nat = 0\ntap = "X"\n', "flight.toml:1: level: expected a valid string, got 5"),
    ('[weather]\nwind = [0, 0, 99]\n[[timeline]]\nat = 0\ntap = "X"\n',
     "flight.toml:2: weather.wind: expected [x, y, z] wind in m/s"),
    ('[weather]\ngusts = -1\n[[timeline]]\nat = 0\ntap = "X"\n', "flight.toml:2: weather.gusts: expected a gust intensity"),
    ('[weather]\nrain = 3\n[[timeline]]\nat = 0\ntap = "X"\n', "flight.toml:2: weather.rain: expected no such key"),
    ("[[timeline]]\nat = 0\ntap = \n", "flight.toml:3: expected valid TOML, got: "),
])
def test_header_and_file_problems(text, expected):
    lines = errors_of(text)
    assert len(lines) == 1, lines
    assert lines[0].startswith(expected), lines[0]


def test_unreadable_files(tmp_path):
    with pytest.raises(DataFileError) as info:
        load_script(tmp_path / "absent.toml")
    assert info.value.lines == [f"{tmp_path / 'absent.toml'}: file not found"]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"at = 1\n\xff\xfe")
    with pytest.raises(DataFileError) as info:
        load_script(binary)
    assert info.value.lines == [f"{binary}:2: expected UTF-8 text, got byte 0xff"]


# -- the player ------------------------------------------------------------------------------
class FakeSim:
    """What the player needs of a Simulation: the pad and a menu that knows some entries."""

    def __init__(self, entries=("manual", "restart")) -> None:
        self.pad = Pad()
        self.entries = entries
        self.selected: list[tuple[float, str]] = []
        self.t = 0.0

    def select(self, name: str) -> None:
        if name not in self.entries:
            raise ValueError(f"unknown menu entry {name!r}")
        self.selected.append((self.t, name))


def play(text: str, seconds: float, sim: FakeSim | None = None, warn=None):
    """Frame by frame: after applying, record (frame start time, copy of the pad state, press
    edges), then clear the edges as the INPUT stage would."""
    sim = sim or FakeSim()
    player = ScriptPlayer(parse_script(textwrap.dedent(text)), warn=warn)
    frames = []
    for k in range(round(seconds / FRAME_S)):
        sim.t = k * FRAME_S
        player.apply(sim, sim.t)
        pad = sim.pad
        frames.append((sim.t, pad.left, pad.right, pad.lt, pad.rt, frozenset(pad.held), tuple(pad.presses)))
        pad.presses.clear()
    return frames, sim


def first_frame(frames, predicate) -> float:
    return next(f[0] for f in frames if predicate(f))


def test_an_action_takes_effect_at_the_first_frame_starting_at_or_after_its_time():
    frames, _ = play("[[timeline]]\nat = 0.51\npress = 'Y'\n", 1.0)
    # 0.51 s lies in frame 30 ([0.5, 0.5167)): the press shows at frame 31, which starts at 31/60 s
    assert first_frame(frames, lambda f: "Y" in f[5]) == pytest.approx(31 / 60)
    frames, _ = play("[[timeline]]\nat = 0.5\npress = 'Y'\n", 1.0)
    assert first_frame(frames, lambda f: "Y" in f[5]) == pytest.approx(0.5)


def test_hold_presses_once_and_releases_after_its_duration():
    frames, _ = play("[[timeline]]\nat = 1.0\nhold = 'Y'\nfor = 2.0\n", 4.0)
    held = [f[0] for f in frames if "Y" in f[5]]
    assert held[0] == pytest.approx(1.0) and held[-1] == pytest.approx(3.0 - FRAME_S)
    assert len(held) == round(2.0 / FRAME_S)
    assert [f[0] for f in frames if "Y" in f[6]] == [pytest.approx(1.0)]  # one edge


def test_tap_gives_a_press_edge_with_the_button_already_released():
    frames, _ = play("[[timeline]]\nat = 0.5\ntap = ['X', 'LS']\n", 1.0)
    edges = [(f[0], f[6]) for f in frames if f[6]]
    assert edges == [(pytest.approx(0.5), ("X", "LS"))]
    assert not any(f[5] for f in frames)


def test_press_and_release_and_trigger_persistence():
    frames, _ = play("""
        [[timeline]]
        at = 0.0
        press = "A"
        rt = 0.75
        [[timeline]]
        at = 1.0
        release = "A"
    """, 2.0)
    assert all(f[4] == 0.75 for f in frames)  # a trigger without `for` stays
    assert first_frame(frames, lambda f: "A" not in f[5]) == pytest.approx(1.0)


def test_axes_with_for_return_to_neutral_unless_a_later_entry_took_them():
    frames, _ = play("""
        [[timeline]]
        at = 0.0
        left = [0.0, 1.0]
        rt = 1.0
        for = 0.5
        [[timeline]]
        at = 0.25
        left = [1.0, 0.0]
    """, 1.0)
    at = {round(f[0] * 60): f for f in frames}
    assert at[0][1] == (0.0, 1.0) and at[0][4] == 1.0
    assert at[15][1] == (1.0, 0.0)
    assert at[30][4] == 0.0  # the trigger's `for` ended: released
    assert at[59][1] == (1.0, 0.0)  # the stick was set again later: the first `for` leaves it


def test_a_hold_ending_as_a_new_press_begins_still_gives_a_fresh_edge():
    frames, _ = play("""
        [[timeline]]
        at = 0.0
        hold = "Y"
        for = 0.5
        [[timeline]]
        at = 0.5
        press = "Y"
    """, 1.0)
    assert [f[0] for f in frames if "Y" in f[6]] == [pytest.approx(0.0), pytest.approx(0.5)]
    assert all("Y" in f[5] for f in frames)


def test_selections_are_made_on_time_and_unknown_ones_are_skipped_with_a_warning():
    warnings: list[str] = []
    text = """
        [[timeline]]
        at = 0.5
        select = "restart"
        [[timeline]]
        at = 0.75
        select = "mission"
    """
    _, sim = play(text, 1.0, warn=warnings.append)
    assert sim.selected == [(pytest.approx(0.5), "restart")]
    assert len(warnings) == 1
    mission_line = line_of(text, '"mission"')
    assert warnings[0].startswith(f"<script>:{mission_line}: timeline.1.select: ")
    assert "skipped" in warnings[0]


# -- the summary -----------------------------------------------------------------------------
def record(time, position, contact=False, energy_wh=4.18, damage=0.0, velocity=(0.0, 0.0, 0.0), mode="manual"):
    return {"time": time, "position": list(position), "velocity": list(velocity), "contact": contact,
            "battery_energy_wh": energy_wh, "battery_fraction": energy_wh / 4.18, "damage": damage, "mode": mode,
            "armed": True, "motor_power": 0.5, "mission": {"status": "idle", "waypoint_index": -1}}


def test_summary_counts_contact_starts_distance_and_energy_through_a_restart():
    s = FlightSummary()
    s.add(record(0.0, (0, 0, 0.07), contact=False))          # before the first frame: baseline
    s.add(record(1 / 60, (0, 0, 0.07), contact=True))         # frame 1 settles on the pad: not a start
    s.add(record(2 / 60, (0, 0, 1.07), contact=False, energy_wh=4.17, velocity=(0, 0, 3.0)))
    s.add(record(3 / 60, (3, 4, 1.07), contact=False, energy_wh=4.16, velocity=(3.0, 4.0, 0.0)))
    s.add(record(4 / 60, (3, 4, 0.07), contact=True, energy_wh=4.15, damage=0.2))   # touchdown: 1
    s.add(record(1 / 60, (0, 0, 0.07), contact=True, energy_wh=4.18))              # Restart: recharged, moved back
    s.add(record(2 / 60, (0, 0, 0.07), contact=False, energy_wh=4.17))
    s.add(record(3 / 60, (0, 0, 0.07), contact=True, energy_wh=4.16))              # 2
    assert s.frames == 7 and s.seconds == pytest.approx(7 / 60)
    assert s.contacts == 2 and s.restarts == 1
    assert s.distance_m == pytest.approx(1.0 + 5.0 + 1.0)  # the Restart's jump back is not flown
    assert s.energy_used_wh == pytest.approx(0.03 + 0.02)  # the recharge is not negative use
    assert s.max_speed_m_s == pytest.approx(5.0) and s.max_horizontal_speed_m_s == pytest.approx(5.0)
    assert s.max_altitude_m == pytest.approx(1.07) and s.max_damage == pytest.approx(0.2)


def test_a_restart_is_recognised_by_the_recharge_even_if_the_clock_goes_on():
    s = FlightSummary()
    s.add(record(0.0, (0, 0, 0.07), contact=True))
    s.add(record(1 / 60, (0, 0, 3.0), contact=False, energy_wh=4.10))
    s.add(record(2 / 60, (0, 0, 0.07), contact=True, energy_wh=4.18))  # Restart: back on the pad, recharged
    assert s.restarts == 1 and s.contacts == 0
    assert s.distance_m == pytest.approx(3.0 - 0.07)
    assert s.energy_used_wh == pytest.approx(0.08)
