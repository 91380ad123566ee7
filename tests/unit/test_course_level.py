"""Courses in level files: the format, and each problem as one located line naming the key."""

from __future__ import annotations

import re

import pytest

from engine.datafile import DataFileError
from world.course import CompiledCourse, Gate
from world.level_file import level_json_schema, load_level, parse_level

ERROR_LINE = re.compile(r"^\S+:\d+: ([\w.\-]+: )?.*expected .+, got.+$")

# a field with a wall between x = 10 and 10.4: the start pad at the origin, another pad at x = 30
BASE = """\
format_version = 1
name = "Course test"
spawn_pad = "start"

[[pads]]
id = "start"
position = [0.0, 0.0]

[[pads]]
id = "far"
position = [30.0, 0.0]

[[boxes]]
id = "wall"
position = [10.2, 20.0]
size = [0.4, 10.0, 6.0]
kind = "wall"
"""


def course(*gates: str, head: str = "") -> str:
    text = BASE + '\n[[courses]]\nid = "c"\nname = "C"\npar_s = 10.0\n' + head
    for g in gates:
        text += "\n[[courses.gates]]\n" + g + "\n"
    return text


GATE_A = "position = [5.0, 0.0, 3.0]\nsize = [2.0, 2.0]"
GATE_B = "position = [20.0, 0.0, 3.0]\nradius = 1.0"


def errors_of(text: str) -> list[str]:
    with pytest.raises(DataFileError) as info:
        parse_level(text, "lvl.toml")
    for line in info.value.lines:
        assert ERROR_LINE.match(line), line
    return info.value.lines


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return text[:index].count("\n") + 1


def test_a_good_course_loads_and_compiles():
    level = parse_level(course(GATE_A, GATE_B, head='laps = 2\nstart = "pad:start"\nfinish = "pad:far"\n'))
    c = CompiledCourse.of(level.courses[0])
    assert (c.laps, c.passages, c.start_pad, c.finish_pad) == (2, 4, "start", "far")
    assert c.gate(2) is c.gates[0] and c.gates[1].is_ring
    assert c.gates[0].normal == pytest.approx((1.0, 0.0, 0.0))  # heading 0: passed towards +X


def test_the_schema_knows_courses():
    schema = level_json_schema()
    assert "courses" in schema["properties"]
    assert {"CourseGate", "Course"} <= set(schema["$defs"])


def test_a_course_with_no_gate():
    text = course()
    lines = errors_of(text)
    assert len(lines) == 1 and "courses.0.gates: expected at least one gate" in lines[0]


@pytest.mark.parametrize("key, value", [("start", "pad:nowhere"), ("finish", "pad:gone")])
def test_a_start_or_finish_pad_that_does_not_exist(key, value):
    text = course(GATE_A, head=f'{key} = "{value}"\n')
    lines = errors_of(text)
    assert len(lines) == 1
    assert lines[0].startswith(f"lvl.toml:{line_of(text, key + ' =')}: courses.0.{key}: expected")
    assert f"got '{value}'" in lines[0] and "start, far" in lines[0]


def test_start_and_finish_are_gate_or_a_pad():
    lines = errors_of(course(GATE_A, head='start = "pad:"\n'))
    assert len(lines) == 1 and "courses.0.start" in lines[0]


@pytest.mark.parametrize("gate", ["position = [5.0, 0.0, 3.0]", "position = [5.0, 0.0, 3.0]\nsize = [2.0, 2.0]\nradius = 1.0"])
def test_a_gate_is_a_rectangle_or_a_ring(gate):
    lines = errors_of(course(gate))
    assert len(lines) == 1 and "courses.0.gates.0" in lines[0] and "size = [width, height] or radius" in lines[0]


def test_a_gate_inside_a_solid():
    # the wall stands from y = 15 to 25: a gate at y = 20 has the wall through its opening
    text = course("position = [10.2, 20.0, 3.0]\nsize = [2.0, 2.0]")
    lines = errors_of(text)
    assert len(lines) == 1
    assert lines[0].startswith(f"lvl.toml:{line_of(text, 'position = [10.2, 20.0, 3.0]')}: courses.0.gates.0.position: ")
    assert "clear of solids" in lines[0] and "wall 'wall'" in lines[0]


def test_a_gate_in_the_ground():
    lines = errors_of(course("position = [5.0, 0.0, 0.5]\nsize = [2.0, 2.0]"))
    assert len(lines) == 1 and "the ground" in lines[0]


def test_gates_that_overlap():
    crossing = "position = [5.0, 0.0, 3.0]\nheading_deg = 90.0\nsize = [2.0, 2.0]"  # the same centre, turned 90°
    text = course(GATE_A, crossing)
    lines = errors_of(text)
    assert len(lines) == 1 and "courses.0.gates.1.position" in lines[0] and "overlapping courses.0.gates.0" in lines[0]
    twice = errors_of(course(GATE_A, GATE_A))
    assert len(twice) == 1 and "overlapping" in twice[0]
    # side by side, 0.5 m apart: no overlap
    parse_level(course(GATE_A, "position = [5.0, 2.5, 3.0]\nsize = [2.0, 2.0]"))


def test_a_gate_walled_in():
    # from gate 0 (x = 5, y = 20) to gate 1 (x = 15, y = 20) the wall at x = 10.2 is in the way
    behind = "position = [15.0, 20.0, 3.0]\nsize = [2.0, 2.0]"
    text = course("position = [5.0, 20.0, 3.0]\nsize = [2.0, 2.0]", behind)
    lines = errors_of(text)
    assert len(lines) == 1
    assert lines[0].startswith(f"lvl.toml:{line_of(text, 'position = [15.0, 20.0, 3.0]')}: courses.0.gates.1.position: ")
    assert "walled in by wall 'wall'" in lines[0]
    # the first gate is reached from the start pad: walled in too when the wall stands between
    lines = errors_of(course("position = [15.0, 20.0, 3.0]\nsize = [2.0, 2.0]", head='start = "pad:start"\n'))
    assert len(lines) == 1 and "courses.0.gates.0.position" in lines[0] and "from the start pad" in lines[0]


def test_duplicate_course_ids():
    text = course(GATE_A) + '\n[[courses]]\nid = "c"\nname = "Again"\npar_s = 5.0\n[[courses.gates]]\n' + GATE_B + "\n"
    lines = errors_of(text)
    assert len(lines) == 1 and "courses.1.id: expected a unique id" in lines[0]


def test_the_shipped_courses():
    street, field = load_level("street"), load_level("field")
    assert [c.id for c in street.courses] == ["street-run"] and [c.id for c in field.courses] == ["field-hoops"]
    hoops = field.courses[0]
    gates = [Gate.of(g) for g in hoops.gates]
    assert any(g.centre[2] >= 5.0 for g in gates), "a raised gate"
    assert any(g.tilt_deg != 0.0 for g in hoops.gates), "a tilted gate"
    assert hoops.finish == "pad:arrival" and field.pad("arrival").role == "arrival"


def test_a_problem_in_the_second_course_names_its_own_line():
    # `[[courses.gates]]` belongs to the `[[courses]]` above it: the count starts again per course
    second = '\n[[courses]]\nid = "d"\nname = "D"\npar_s = 5.0\n[[courses.gates]]\n' + GATE_B + \
             '\n[[courses.gates]]\nposition = [6.0, 0.0, 3.0]\nsize = [2.0, 2.0]\nradius = 1.0\n'
    text = course(GATE_A, GATE_B) + second
    lines = errors_of(text)
    assert len(lines) == 1
    assert lines[0].startswith(f"lvl.toml:{line_of(text, '[[courses.gates]]', 4)}: courses.1.gates.1: ")
