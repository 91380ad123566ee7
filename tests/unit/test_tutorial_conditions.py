"""The tutorial condition language (world/tutorial.py) and the `[tutorial]` section of a level."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from engine.datafile import DataFileError
from game.input.keyboard import ACTIONS
from world.level_file import load_level, parse_level
from world.tutorial import FIELDS, ConditionError, TutorialProgress, fill, parse_condition, ACTION_NAMES



# -- the grammar -------------------------------------------------------------------------------
@pytest.mark.parametrize("text, values, expected", [
    ("motor_power >= 0.2", {"motor_power": 0.2}, True),       # boundary included
    ("motor_power >= 0.2", {"motor_power": 0.19}, False),
    ("motor_power > 0.2", {"motor_power": 0.2}, False),        # boundary excluded
    ("speed < 0.3", {"speed": 0.29}, True),
    ("speed <= 0.3", {"speed": 0.3}, True),
    ("speed != 1", {"speed": 1.0}, False),
    ("speed == 1e0", {"speed": 1.0}, True),
    ("height > -.5", {"height": -0.4}, True),
    ('mode == "manual"', {"mode": "manual"}, True),
    ('mode != "manual"', {"mode": "angle"}, True),
    ('landed_on == "arrival"', {"landed_on": ""}, False),
    ("armed == true", {"armed": True}, True),
    ("contact == false", {"contact": True}, False),
    ("height_above_ground > 1", {"height_above_ground": None}, False),  # missing: false
    ("height_above_ground < 1", {"height_above_ground": None}, False),  # missing: false either way
])
def test_a_comparison_holds_exactly_as_its_operator_says(text, values, expected):
    assert parse_condition(text).holds(values) is expected


@pytest.mark.parametrize("a", [False, True])
@pytest.mark.parametrize("b", [False, True])
@pytest.mark.parametrize("c", [False, True])
def test_and_binds_tighter_than_or(a, b, c):
    """`A or B and C` is `A or (B and C)`: the full truth table of three comparisons."""
    values = {"speed": 1.0 if a else 0.0, "height": 1.0 if b else 0.0, "damage": 1.0 if c else 0.0}
    cond = parse_condition("speed > 0.5 or height > 0.5 and damage > 0.5")
    assert cond.holds(values) is (a or (b and c))
    cond = parse_condition("speed > 0.5 and height > 0.5 or damage > 0.5")
    assert cond.holds(values) is ((a and b) or c)


@pytest.mark.parametrize("text, expected", [
    ("", "a condition such as"),
    ("spede > 2", "a known field at column 1"),
    ("speed >", "a comparison `field operator value` at column 1"),
    ("speed = 2", "an operator"),
    ("speed > fast", "a number after speed >"),
    ('speed > "2"', "a number after speed >"),
    ("mode == manual", 'a "double-quoted" string'),
    ('mode > "manual"', "== or != with the text field mode"),
    ("armed == 1", "true or false"),
    ("speed > 2 and", "at the end"),
    ("speed > 2 speed < 3", "`and`, `or` or the end at column 11"),
    ("speed > 2 && speed < 3", "column 11"),
    ("__import__('os') > 1", 'a field, an operator, a number or a "string" at column 11'),
])
def test_a_bad_condition_says_what_was_expected_and_where(text, expected):
    with pytest.raises(ConditionError, match=re.escape(expected)):
        parse_condition(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80) | st.lists(st.sampled_from(
    [*FIELDS, "and", "or", "<", ">=", "==", "!=", "1", "-2.5", '"x"', "true", "(", ")", "1e999"]),
    max_size=12).map(" ".join))
def test_garbage_never_raises_anything_but_the_condition_error(text):
    try:
        cond = parse_condition(text)
    except ConditionError:
        return
    # what parses evaluates without error on any values, missing ones included
    assert cond.holds({}) is False
    cond.holds({name: 0.0 for name in FIELDS})


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
       st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_a_number_comparison_agrees_with_python(value, threshold):
    for op, fn in (("<", float.__lt__), ("<=", float.__le__), (">", float.__gt__), (">=", float.__ge__)):
        assert parse_condition(f"speed {op} {threshold!r}").holds({"speed": value}) is fn(value, threshold)


def test_a_step_completes_when_its_condition_has_held_for_its_hold_time():
    conds = [parse_condition("speed > 1"), parse_condition("speed < 1")]
    progress = TutorialProgress()
    dt = 1 / 240
    ticks_for_half_a_second = 120  # 0.5 s / (1/240 s)
    done = []
    for _ in range(ticks_for_half_a_second - 1):
        done += progress.advance(conds, [0.5, 0.0], {"speed": 2.0}, dt)
    assert done == [] and progress.step == 0
    progress.advance(conds, [0.5, 0.0], {"speed": 0.0}, dt)  # broken: the hold starts again
    assert progress.held_s == 0.0
    for _ in range(ticks_for_half_a_second):
        done += progress.advance(conds, [0.5, 0.0], {"speed": 2.0}, dt)
    assert done == [0] and progress.step == 1
    assert progress.advance(conds, [0.5, 0.0], {"speed": 0.0}, dt) == [1]
    assert progress.finished(2) and progress.advance(conds, [0.5, 0.0], {"speed": 0.0}, dt) == []


def test_placeholders_are_the_games_actions_and_fill_replaces_them():
    assert set(ACTION_NAMES) <= set(ACTIONS)
    assert fill("Hold {power_up}, then {nothing}", {"power_up": "Page Up / RT"}) == "Hold Page Up / RT, then {nothing}"


# -- the level's [tutorial] ----------------------------------------------------------------------
BASE = '''format_version = 1
name = "t"
spawn_pad = "start"

[[pads]]
id = "start"
position = [0.0, 0.0]
'''


def step(condition: str, text: str = "Press {power_up}") -> str:
    return f'\n[[tutorial.steps]]\ntext.en = "{text}"\ntext.fr = "{text}"\ncondition = \'{condition}\'\n'


def errors(text: str) -> list[str]:
    with pytest.raises(DataFileError) as exc:
        parse_level(text, "levels/mine/level.toml")
    return exc.value.lines if hasattr(exc.value, "lines") else str(exc.value).splitlines()


def test_a_bad_condition_is_one_located_line():
    text = BASE + step("motor_power >= 0.2") + step("spede > 2")
    line_of_bad = text.splitlines().index("condition = 'spede > 2'") + 1
    (line,) = errors(text)
    assert line.startswith(f"levels/mine/level.toml:{line_of_bad}: tutorial.steps.1.condition: expected a condition: "
                           "a known field at column 1")
    assert line.endswith("got 'spede > 2'")


def test_an_unknown_placeholder_and_an_unknown_pad_are_located_lines():
    en, fr = errors(BASE + step("speed > 1", "Press {powr_up}"))  # the same text in both languages
    assert ": tutorial.steps.0.text.en: expected {action} placeholders" in en and "found {powr_up}" in en
    assert ": tutorial.steps.0.text.fr: expected {action} placeholders" in fr
    (line,) = errors(BASE + step('landed_on == "arival"'))
    assert ": tutorial.steps.0.condition: expected landed_on compared with the id of a pad (start), got 'arival'" in line


def test_first_flight_is_a_tutorial_level():
    level = load_level("first-flight")
    assert level.tutorial is not None and len(level.tutorial.steps) == 7
    for s in level.tutorial.steps:
        parse_condition(s.condition)
        assert s.text.en and s.text.fr and s.text.en != s.text.fr


def toml_string(text: str) -> str:
    """`text` as a TOML basic string: quotes, backslashes and control characters escaped."""
    return '"' + "".join(f"\\u{ord(c):04x}" if c in '"\\' or ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 else c
                         for c in text) + '"'


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_any_condition_in_a_level_file_loads_or_is_one_located_line(text):
    quoted = toml_string(text)
    source = BASE + f'\n[[tutorial.steps]]\ntext.en = "a"\ntext.fr = "b"\ncondition = {quoted}\n'
    condition_line = source.split("\n").index(f"condition = {quoted}") + 1
    try:
        level = parse_level(source, "levels/mine/level.toml")
    except DataFileError as exc:
        lines = exc.lines if hasattr(exc, "lines") else str(exc).splitlines()
        assert len(lines) == 1
        assert lines[0].startswith(f"levels/mine/level.toml:{condition_line}: tutorial.steps.0.condition: expected ")
    else:
        assert str(parse_condition(level.tutorial.steps[0].condition))  # what loads, parses
