"""The level format: shipped levels load, bad files give every problem as one located line,
the semantic checks, defaults omitted from shipped files, the exported JSON Schema."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from engine.datafile import DataFileError
from world.level import Level
from world.level_file import LEVELS_DIR, level_json_schema, load_level, parse_level, shipped_levels

ERROR_LINE = re.compile(r"^\S+:\d+: ([\w.\-]+: )?expected .+, got.+$")
STREET = (LEVELS_DIR / "street" / "level.toml").read_text(encoding="utf-8")


def errors_of(text: str) -> list[str]:
    with pytest.raises(DataFileError) as info:
        parse_level(text, "lvl.toml")
    for line in info.value.lines:
        assert ERROR_LINE.match(line), line
    return info.value.lines


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_shipped_levels_are_street_and_field():
    assert {"street", "field"} <= set(shipped_levels())


def test_street_has_what_the_issue_asks():
    level = load_level("street")
    assert isinstance(level, Level) and level.format_version == 1
    assert level.street is not None and level.street.road_width > 0 and level.street.pavement_width > 0
    ys = [b.position[1] for b in level.boxes if b.kind == "building" and abs(b.position[1]) < 30]
    assert any(y > 0 for y in ys) and any(y < 0 for y in ys), "buildings on both sides of the street"
    roles = {p.role for p in level.pads}
    assert {"start", "arrival"} <= roles
    assert level.spawn.role == "start"
    assert level.platforms and level.platforms[0].top_m >= 2.0, "a raised platform a few metres up"
    kinds = {c.kind for c in level.cylinders}
    assert {"pole", "tree"} <= kinds
    assert level.mission is not None and level.mission.transit_altitude == 18.0  # docs/model.md#assists
    sections = {w.section for w in level.mission.waypoints}
    assert sections == {"street", "outskirts"}
    arrival = level.pad(level.mission.arrival_pad)
    assert arrival.role == "arrival"
    assert arrival.position[0] - level.spawn.position[0] > 100.0, "arrival at the far end"
    assert len(level.weather) >= 2 and level.start_weather.id == "calm"


def test_spawn_position_rests_on_the_pad():
    level = load_level("street")
    height = 0.041
    x, y, z = level.spawn_position(height)
    pad = level.spawn
    assert (x, y) == pad.position[:2]
    assert z == pytest.approx(pad.position[2] + pad.height + height / 2)


def test_names_folders_and_files_load_the_same():
    by_name = load_level("street")
    by_folder = load_level(LEVELS_DIR / "street")
    by_file = load_level(str(LEVELS_DIR / "street" / "level.toml"))
    assert by_name == by_folder == by_file


def test_every_problem_reported_at_once_with_its_line():
    text = (STREET.replace('size = [18.0, 12.0, 9.0]', 'size = [18.0, "wide", 9.0]', 1)
            .replace("gust_m_s = 0.8", "gust_m_s = nan")
            .replace('name = "Light breeze"', 'name = "Light breeze"\ncolor = "#ffffff"'))
    lines = errors_of(text)
    assert len(lines) == 3
    wide = line_of(text, 'size = [18.0, "wide"')
    assert lines[0].startswith(f"lvl.toml:{wide}: boxes.0.size.1: expected a valid number")
    assert any(f":{line_of(text, 'gust_m_s = nan')}: weather.1.gust_m_s: expected a finite number" in x for x in lines)
    assert any(f":{line_of(text, 'color =')}: weather.1.color: expected no such key" in x for x in lines)


@pytest.mark.parametrize("old,new,fragment", [
    ("format_version = 1", "format_version = 7", "format_version: expected 1"),
    ('spawn_pad = "start"', "spawn_pad = 3", "spawn_pad: expected a valid string"),
    ("size = [1.2, 1.2]", "size = [1.2, -1.2]", "pads.0.size.1: expected greater than 0"),
    ("position = [0.0, 0.0]\nsize = [1.2", "position = [1e300, 0.0]\nsize = [1.2", "pads.0.position.0: expected less than or equal to"),
    ('role = "start"', 'role = "home"', "pads.0.role: expected 'start', 'arrival' or 'other'"),
])
def test_single_mistakes_are_named(old, new, fragment):
    assert old in STREET
    lines = errors_of(STREET.replace(old, new, 1))
    assert any(fragment in line for line in lines), lines


def test_syntax_error_is_one_located_line():
    lines = errors_of(STREET.replace("[street]", "[street", 1))
    assert len(lines) == 1 and "expected valid TOML" in lines[0]


def test_missing_file_and_unknown_name(tmp_path):
    with pytest.raises(DataFileError) as info:
        load_level(tmp_path / "nowhere.toml")
    assert info.value.lines == [f"{tmp_path / 'nowhere.toml'}: file not found"]
    with pytest.raises(DataFileError) as info:
        load_level("atlantis")
    assert "expected a shipped level name" in info.value.lines[0]


# -- semantic checks (issue #4 item 2) ---------------------------------------------------------
def test_unknown_pad_in_the_route():
    text = STREET.replace('arrival_pad = "arrival"', 'arrival_pad = "arivval"')
    (line,) = errors_of(text)
    assert f":{line_of(text, 'arrival_pad =')}: mission.arrival_pad: expected the id of a pad" in line
    assert "'arivval'" in line


def test_unknown_spawn_pad_and_weather():
    text = STREET.replace('spawn_pad = "start"', 'spawn_pad = "begin"\ndefault_weather = "fog"')
    lines = errors_of(text)
    assert any("spawn_pad: expected the id of a pad" in x for x in lines)
    assert any("default_weather: expected the id of a weather preset" in x for x in lines)


def test_duplicate_ids():
    text = STREET.replace('id = "north-2"', 'id = "north-1"')
    (line,) = errors_of(text)
    assert "boxes.1.id: expected a unique id, got 'north-1' already used by boxes[0]" in line


def test_spawn_overlapping_a_building():
    # north-1 stands on x 0..18, y 8..20: put the start pad inside it
    text = STREET.replace('id = "start"\nposition = [0.0, 0.0]', 'id = "start"\nposition = [9.0, 12.0]')
    lines = errors_of(text)
    assert any("pads.0.position: expected the spawn pad clear of other solids" in x and "'north-1'" in x for x in lines)


def test_waypoint_inside_a_building():
    # north-4 (x 80..100, y 8..20) raised to 25 m: above the 18 m transit altitude
    text = STREET.replace("size = [20.0, 12.0, 15.0]", "size = [20.0, 12.0, 25.0]").replace(
        "position = [90.0, 0.0]", "position = [90.0, 14.0]")
    (line,) = errors_of(text)
    assert "mission.waypoints.1.position: expected a waypoint in the open" in line and "'north-4'" in line


def test_route_below_an_obstacle():
    # a 30 m mast in the middle of the street, between street-1 (30, 0) and street-2 (90, 0)
    text = STREET.replace("[[platforms]]", '[[cylinders]]\nid = "mast"\nposition = [60.0, 0.0]\nradius = 0.5\nheight = 30.0\n\n[[platforms]]')
    (line, *course) = errors_of(text)  # the mast stands in the street course's way too
    assert all("courses.0.gates" in c for c in course)
    assert "mission.waypoints.1.position: expected a route clear of obstacles at the transit altitude 18 m" in line
    assert "pole 'mast'" in line


def test_floating_pad():
    text = STREET.replace("position = [155.0, 0.0]", "position = [155.0, 0.0, 2.0]")
    (line,) = errors_of(text)
    assert "pads.1.position: expected the pad's base on the ground" in line


# -- the format's conventions -------------------------------------------------------------------
def _defaults_written(model_cls, data: dict, path: str) -> list[str]:
    found = []
    for key, value in data.items():
        field = model_cls.model_fields.get(key)
        if field is None:
            continue
        sub = field.annotation
        if isinstance(value, dict) and hasattr(sub, "model_fields"):
            found += _defaults_written(sub, value, f"{path}{key}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            item_cls = getattr(sub, "__args__", [None])[0] if hasattr(sub, "__args__") else None
            inner = getattr(item_cls, "__origin__", None) and item_cls.__args__[0]
            item_cls = inner if hasattr(inner, "model_fields") else item_cls
            if hasattr(item_cls, "model_fields"):
                for i, item in enumerate(value):
                    found += _defaults_written(item_cls, item, f"{path}{key}.{i}.")
        elif not field.is_required():
            default = field.get_default(call_default_factory=True)
            as_tuple = tuple(value) if isinstance(value, list) else value
            if as_tuple == default or (isinstance(default, tuple) and len(value) == 2 and tuple(value) + (0.0,) == default):
                found.append(f"{path}{key}")
    return found


@pytest.mark.parametrize("name", shipped_levels())
def test_shipped_files_omit_defaults(name):
    from world import level as model

    data = tomllib.loads((LEVELS_DIR / name / "level.toml").read_text(encoding="utf-8"))
    written = []
    for section, cls in (("boxes", model.Box), ("cylinders", model.Cylinder), ("pads", model.LandingPad),
                         ("platforms", model.Platform), ("weather", model.WeatherPreset)):
        for i, item in enumerate(data.get(section, [])):
            written += _defaults_written(cls, item, f"{section}.{i}.")
    for section, cls in (("ground", model.Ground), ("street", model.Street), ("lighting", model.Lighting),
                         ("contact", model.Contact)):
        written += _defaults_written(cls, data.get(section, {}), f"{section}.")
    mission = data.get("mission", {})
    written += _defaults_written(model.Mission, {k: v for k, v in mission.items() if k != "waypoints"}, "mission.")
    for i, w in enumerate(mission.get("waypoints", [])):
        written += _defaults_written(model.Waypoint, w, f"mission.waypoints.{i}.")
    written += _defaults_written(model.Level, {k: v for k, v in data.items() if not isinstance(v, (dict, list))}, "")
    assert written == []


def test_exported_schema_is_up_to_date():
    shipped = json.loads((LEVELS_DIR / "level.schema.json").read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(level_json_schema())), "run: python -m world.level_file"
    assert shipped["additionalProperties"] is False and "pads" in shipped["required"]
