"""Fuzzing the level loader with mutations of the shipped files (issue #4 item 7): wrong types,
missing keys, NaN, huge numbers, bad UTF-8, truncated files → always a clean DataFileError
(one located line per problem) or a valid Level, never another exception."""

from __future__ import annotations

import copy
import math
import re
import tempfile
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.datafile import DataFileError, TomlSource
from world.level import Level
from world.level_file import LEVELS_DIR, level_from_source, load_level, shipped_levels

FILES = {name: (LEVELS_DIR / name / "level.toml").read_bytes() for name in shipped_levels()}
LINE = re.compile(r"^.+:\d+: .*expected .+, got.+$")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BAD_VALUES = st.sampled_from([
    math.nan, math.inf, -math.inf, 1e308, -1e308, 10**30, -1, 0, "", "x", True, [], [1.0], [math.nan, 1.0],
    {}, {"x": 1}, [[1.0, 2.0]], "#zzzzzz", None,
])


def _paths(data, prefix=()):
    """Every key path in the parsed TOML (tables, arrays and leaves)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*prefix, i)
            yield from _paths(value, (*prefix, i))


def _check(outcome_fn) -> None:
    try:
        level = outcome_fn()
    except DataFileError as exc:
        assert exc.lines, "an error names at least one problem"
        for line in exc.lines:
            assert "\n" not in line and LINE.match(line), line
    else:
        assert isinstance(level, Level)


@FUZZ
@given(name=st.sampled_from(sorted(FILES)), data=st.data())
def test_mutated_values(name, data):
    text = FILES[name].decode("utf-8")
    parsed = tomllib.loads(text)
    paths = list(_paths(parsed))
    mutated = copy.deepcopy(parsed)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = mutated
        try:
            for key in path[:-1]:
                parent = parent[key]
            action = data.draw(st.sampled_from(["delete", "replace"]))
            if action == "delete":
                del parent[path[-1]]
            else:
                value = data.draw(BAD_VALUES)
                if value is None:
                    continue
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this path
    _check(lambda: level_from_source(TomlSource(Path(f"{name}.toml"), text, mutated)))


@FUZZ
@given(name=st.sampled_from(sorted(FILES)), data=st.data())
def test_mutated_bytes(name, data):
    raw = bytearray(FILES[name])
    kind = data.draw(st.sampled_from(["truncate", "bad-utf8", "flip", "delete-line", "number"]))
    if kind == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    elif kind == "bad-utf8":
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\x80abc"]))
    elif kind == "flip":
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    elif kind == "delete-line":
        lines = bytes(raw).split(b"\n")
        del lines[data.draw(st.integers(0, len(lines) - 1))]
        raw = bytearray(b"\n".join(lines))
    else:
        numbers = [m.span() for m in re.finditer(rb"-?\d+\.\d+", bytes(raw))]
        start, end = data.draw(st.sampled_from(numbers))
        raw[start:end] = data.draw(st.sampled_from([b"nan", b"inf", b"-1e309", b"1e300", b'"12"', b"true", b"[]"]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "level.toml"
        path.write_bytes(bytes(raw))
        _check(lambda: load_level(path))
