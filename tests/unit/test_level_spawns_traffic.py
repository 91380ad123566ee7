"""The level format's `[[spawns]]` and `[[traffic]]`: where drones may start, and the AI traffic's
entries and route files. Every problem is one located line; `donify check-level` exits 1 with it."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.datafile import DataFileError
from game.cli import main
from game.traffic import level_routes, route_problems
from world.level_checks import SPAWN_SPACING_M
from world.level_file import load_level, parse_level, shipped_levels

H = 0.041  # an envelope height, m: spawn_points puts the centre of mass half of it above the base

BASE = """\
format_version = 1
name = "Spawns"
spawn_pad = "start"
spawn_yaw_deg = 30.0

[ground]
size = [100.0, 100.0]

[[pads]]
id = "start"
position = [0.0, 0.0]
role = "start"

[[pads]]
id = "east"
position = [10.0, 0.0]
role = "start"

[[pads]]
id = "roof-pad"
position = [20.0, 20.0, 5.0]
size = [1.5, 1.5]

[[boxes]]
id = "house"
position = [20.0, 20.0]
size = [6.0, 6.0, 5.0]

[[cylinders]]
id = "pole"
position = [-10.0, 5.0]
radius = 0.2
height = 4.0
"""
LINES = BASE.count("\n")  # the first appended line is LINES + 1

ROUTE = """\
seconds = 6.0

[[timeline]]
at = 0.0
rt = 1.0
for = 1.0
"""


def level_with(extra: str, path: str = "lvl.toml"):
    return parse_level(BASE + extra, path)


def errors_of(extra: str) -> list[str]:
    with pytest.raises(DataFileError) as info:
        level_with(extra)
    return info.value.lines


# -- spawn points ----------------------------------------------------------------------------
def test_without_spawns_the_start_pads_follow_the_spawn_pad():
    level = level_with("")
    east = level.pad("east")
    assert level.spawn_points(H) == [((0.0, 0.0, 0.05 + H / 2), 30.0), ((10.0, 0.0, east.top_m + H / 2), 30.0)]


def test_spawns_are_listed_in_file_order_after_the_spawn_pad():
    level = level_with("""
[[spawns]]
position = [-5.0, -5.0]
yaw_deg = -90.0

[[spawns]]
pad = "roof-pad"

[[spawns]]
position = [22.0, 22.0, 5.0]
""")
    points = level.spawn_points(H)
    roof = level.pad("roof-pad")
    assert points == [
        ((0.0, 0.0, 0.05 + H / 2), 30.0),              # the player's: the spawn pad's top
        ((-5.0, -5.0, H / 2), -90.0),                  # [x, y]: on the ground, its own yaw
        ((20.0, 20.0, roof.top_m + H / 2), 30.0),      # on the pad's top, the level's yaw
        ((22.0, 22.0, 5.0 + H / 2), 30.0),             # [x, y, z]: standing on the house's roof
    ]
    assert "east" not in str(points)  # [[spawns]] replace the "start" pads rule


BAD_SPAWNS = [
    ('[[spawns]]\npad = "nowhere"\n', "spawns.0.pad", "expected the id of a pad"),
    ('[[spawns]]\nposition = [80.0, 0.0]\n', "spawns.0.position", "expected a place on the ground's area"),
    ('[[spawns]]\nposition = [20.0, 18.0]\n', "spawns.0.position", "inside building 'house'"),
    ('[[spawns]]\nposition = [-10.0, 5.0]\n', "spawns.0.position", "inside pole 'pole'"),
    ('[[spawns]]\nposition = [5.0, 5.0, 2.0]\n', "spawns.0.position", "expected the drone standing on the ground"),
    ('[[spawns]]\npad = "start"\n', "spawns.0.pad", "from the spawn pad 'start'"),
    ('[[spawns]]\nposition = [5.0, 5.0]\n[[spawns]]\nposition = [5.5, 5.0]\n', "spawns.1.position", "from spawns.0"),
    ('[[spawns]]\npad = "east"\nposition = [5.0, 5.0]\n', "spawns.0", "either pad"),
    ('[[spawns]]\nyaw_deg = 10.0\n', "spawns.0", "either pad"),
    ('[[spawns]]\nposition = [5.0, 5.0]\nyaw_deg = 400.0\n', "spawns.0.yaw_deg", "expected less than or equal to 360"),
    ('[[spawns]]\nposition = [5.0, 5.0]\nheading = 1\n', "spawns.0.heading", "expected no such key"),
]


@pytest.mark.parametrize("extra, key, text", BAD_SPAWNS, ids=[b[1] + ":" + b[2][:20] for b in BAD_SPAWNS])
def test_a_bad_spawn_is_one_located_line(extra, key, text):
    lines = errors_of("\n" + extra)
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("lvl.toml:") and f": {key}: expected" in line and text in line, line
    number = int(line.split(":")[1])
    assert LINES < number <= LINES + 1 + extra.count("\n"), line  # the line is in the entry written


def test_spawns_closer_than_the_spacing_are_refused_and_apart_accepted():
    close, apart = 0.9 * SPAWN_SPACING_M, 1.1 * SPAWN_SPACING_M
    assert errors_of(f"\n[[spawns]]\nposition = [5.0, 5.0]\n[[spawns]]\nposition = [{5.0 + close}, 5.0]\n")
    level = level_with(f"\n[[spawns]]\nposition = [5.0, 5.0]\n[[spawns]]\nposition = [{5.0 + apart}, 5.0]\n")
    assert len(level.spawn_points(H)) == 3


# -- traffic entries -------------------------------------------------------------------------
def traffic(**keys) -> str:
    keys = {"id": '"t1"', "position": "[5.0, -5.0]", "script": '"routes/r.toml"', **keys}
    return "\n[[traffic]]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items() if v is not None)


BAD_TRAFFIC = [
    (traffic(pad='"nowhere"', position=None), "traffic.0.pad", "expected the id of a pad"),
    (traffic(position="[20.0, 20.0]"), "traffic.0.position", "inside building 'house'"),
    (traffic(position="[0.7, 0.0]"), "traffic.0.position", "from the spawn pad"),
    (traffic(script='"/etc/route.toml"'), "traffic.0.script", "relative to the level's folder"),
    (traffic(script='"../other/route.toml"'), "traffic.0.script", "relative to the level's folder"),
    (traffic(script='"routes/r.txt"'), "traffic.0.script", "ending in .toml"),
    (traffic(script='"routes\\\\r.toml"'), "traffic.0.script", "folders separated by /"),
    (traffic(script=None), "traffic.0.script", "expected a value, got nothing"),
    (traffic(id=None), "traffic.0.id", "expected a value, got nothing"),
    (traffic(loop="1"), "traffic.0.loop", "boolean"),
    (traffic(start_delay_s="-1.0"), "traffic.0.start_delay_s", "greater than or equal to 0"),
    (traffic(pad='"east"'), "traffic.0", "either pad"),
    (traffic() + traffic(position="[-5.0, -5.0]"), "traffic.1.id", "expected a unique id"),
]


@pytest.mark.parametrize("extra, key, text", BAD_TRAFFIC, ids=[b[1] + ":" + b[2][:20] for b in BAD_TRAFFIC])
def test_a_bad_traffic_entry_is_one_located_line(extra, key, text):
    lines = errors_of(extra)
    assert len(lines) == 1, lines
    assert lines[0].startswith("lvl.toml:") and f": {key}: expected" in lines[0] and text in lines[0], lines[0]


def test_a_traffic_drone_starts_like_a_spawn():
    level = level_with(traffic(yaw_deg="45.0") + traffic(id='"t2"', pad='"roof-pad"', position=None))
    assert level.start_of(level.traffic[0], H) == ((5.0, -5.0, H / 2), 45.0)
    assert level.start_of(level.traffic[1], H) == ((20.0, 20.0, level.pad("roof-pad").top_m + H / 2), 30.0)
    assert level.spawn_points(H)[1:] == [((10.0, 0.0, level.pad("east").top_m + H / 2), 30.0)]  # not a spawn


# -- half-written entries: never a traceback -----------------------------------------------
value = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(['"start"', '"east"', '"nowhere"', '"routes/r.toml"', '"../x.toml"', '""', '"a b"']),
    st.lists(st.floats(-200, 200, allow_nan=False, width=32), max_size=4),
)
KEYS = ("id", "pad", "position", "yaw_deg", "script", "loop", "start_delay_s", "extra_key")


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(repr(float(x)) for x in v) + "]"
    return str(v) if not isinstance(v, float) else repr(v)


entry = st.dictionaries(st.sampled_from(KEYS), value, max_size=6)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(section=st.sampled_from(["spawns", "traffic"]), entries=st.lists(entry, min_size=1, max_size=3))
def test_half_written_entries_give_located_lines_never_a_traceback(tmp_path_factory, capsys, section, entries):
    text = "".join(f"\n[[{section}]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in e.items() if v is not None)
                   for e in entries)
    try:
        level_with(text)
    except DataFileError as exc:
        assert exc.lines
        for line in exc.lines:
            m = re.match(r"^lvl\.toml:(\d+): (\S+): expected .+, got .+", line)
            assert m, line
            assert m.group(2).split(".")[0] in (section, "(top"), line
            assert int(m.group(1)) > LINES, line  # located in what was written, not the base
        path = tmp_path_factory.mktemp("lvl") / "level.toml"
        path.write_text(BASE + text, encoding="utf-8")
        capsys.readouterr()
        assert main(["check-level", str(path)]) == 1  # the command line says the same, and exits 1
        assert capsys.readouterr().err.splitlines() == [str(path) + line[len("lvl.toml"):] for line in exc.lines]


def test_check_level_exits_1_with_the_line(tmp_path, capsys):
    path = tmp_path / "level.toml"
    path.write_text(BASE + '\n[[spawns]]\npad = "nowhere"\n', encoding="utf-8")
    assert main(["check-level", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{path}:{LINES + 3}: spawns.0.pad: expected the id of a pad (start, east, roof-pad), got 'nowhere'"]


# -- route files (game.traffic) --------------------------------------------------------------
def write_level(tmp_path, route: str | None, extra: str = "") -> tuple:
    path = tmp_path / "level.toml"
    path.write_text(BASE + traffic() + extra, encoding="utf-8")
    if route is not None:
        (tmp_path / "routes").mkdir(exist_ok=True)
        (tmp_path / "routes" / "r.toml").write_text(route, encoding="utf-8")
    return path, load_level(path)


def test_a_good_route_is_read_relative_to_the_level_folder(tmp_path):
    _, level = write_level(tmp_path, ROUTE)
    assert route_problems(level) == []
    routes, problems = level_routes(level)
    assert problems == [] and len(routes) == 1 and routes[0].seconds == 6.0


def test_a_missing_route_file_is_the_level_files_line(tmp_path, capsys):
    path, level = write_level(tmp_path, None)
    lines = route_problems(level)
    assert len(lines) == 1
    assert lines[0].startswith(f"{path}:{BASE.count(chr(10)) + 5}: traffic.0.script: expected a flight script file")
    assert "'routes/r.toml'" in lines[0] and "no such file" in lines[0]
    assert main(["check-level", str(path)]) == 1
    assert capsys.readouterr().err.strip().splitlines() == lines


BAD_ROUTES = [
    (ROUTE + '\n[[timeline]]\nat = 2.0\npress = "Z"\n', 10, "timeline.1.press: expected a button"),
    (ROUTE + '\n[[timeline]]\nat = 2.0\ntap = "X"\n\n[[timeline]]\nat = 1.0\ntap = "Y"\n', 13,
     "timeline.2.at: expected a time ≥ 2 s"),
    ('level = "street"\n' + ROUTE, 1, "level: expected only description and seconds"),
    (ROUTE + '\n[weather]\nwind = [1.0, 0.0, 0.0]\n', 8, "weather: expected only description and seconds"),
    (ROUTE + '\n[[timeline]]\nat = 2.0\ntap = "LB"\n', 10, "timeline.1.tap: expected a button a traffic drone answers to"),
    (ROUTE + '\n[[timeline]]\nat = 2.0\nhold = ["Y", "BACK"]\nfor = 1.0\n', 10, "timeline.1.hold: expected a button a traffic"),
    (ROUTE + '\n[[timeline]]\nat = 2.0\nselect = "weather:breeze"\n', 10, "timeline.1.select: expected one of the drone's"),
    ("seconds = 6.0\n", 1, "timeline: expected [[timeline]] entries"),
    ("[[timeline]\nat = 0\n", 1, "expected"),  # not TOML
]


@pytest.mark.parametrize("route, line, text", BAD_ROUTES, ids=[b[2][:40] for b in BAD_ROUTES])
def test_a_bad_route_is_one_line_of_the_route_file(tmp_path, capsys, route, line, text):
    path, level = write_level(tmp_path, route)
    lines = route_problems(level)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{tmp_path / 'routes' / 'r.toml'}:{line}: ") and text in lines[0], lines[0]
    routes, problems = level_routes(level)
    assert routes == [None] and problems == lines  # not flown, said once
    assert main(["check-level", str(path)]) == 1
    assert capsys.readouterr().err.strip().splitlines() == lines


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.dictionaries(
    st.sampled_from(["at", "tap", "press", "hold", "for", "left", "rt", "select", "bogus"]),
    st.one_of(st.sampled_from(['"X"', '"LB"', '"START"', '"takeoff"', '"air:hot_day"', '[0.5, 2.0]', '[0.0, 1.0]',
                               '"Y"', "-1.0", "0.5", "3.0", "true", '"restart"']), st.floats(-5, 50, width=32)),
    max_size=4), max_size=4))
def test_half_written_routes_give_located_lines_never_a_traceback(tmp_path_factory, entries):
    folder = tmp_path_factory.mktemp("lvl")
    route = "".join("\n[[timeline]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in e.items()) for e in entries)
    _, level = write_level(folder, route)
    for line in route_problems(level):
        assert re.match(rf"^{re.escape(str(folder / 'routes' / 'r.toml'))}:\d+: \S+: expected .+", line), line


def test_the_shipped_levels_routes_are_valid_and_the_first_flight_has_no_traffic():
    for name in shipped_levels():
        assert route_problems(load_level(name)) == [], name
    assert load_level("street").traffic, "the street ships traffic"
    assert load_level("first-flight").traffic == [], "the tutorial level is flown alone"
