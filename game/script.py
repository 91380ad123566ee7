"""Flight scripts: a timeline of pad actions, for `donify fly`, demos and reproducible flights.

A flight script is a TOML file (format in `examples/README.md`): an optional header (level,
seed, duration, weather) and a `[[timeline]]` of entries, each at a time `at` in seconds
from the start of the flight, each doing one or more pad actions:

    level = "street"            # shipped level name, or a level file path (relative to the script)
    seed = 0
    seconds = 20.0              # default flight length (`donify fly --seconds` overrides)

    [weather]                   # optional: preset id, then wind (m/s, world) / density (kg/m³) / gusts (σ, m/s)
    wind = [2.0, 0.0, 0.0]

    [[timeline]]
    at = 0.0
    rt = 1.0                    # right trigger, 0..1; stays until changed
    for = 1.0                   # ...then back to 0 after 1 s

    [[timeline]]
    at = 1.0
    hold = "Y"                  # press, and release after `for` seconds
    for = 2.0

Actions: `press` / `release` / `tap` / `hold` take a button or a list of buttons (A B X Y LB
RB LS RS START BACK); `tap` presses and releases within one frame (a click); `hold` needs
`for`. `left` / `right` set a stick to `[x, y]` (x right, y up, each in [-1, 1]); `lt` /
`rt` set a trigger in [0, 1]; with `for` they return to neutral afterwards (unless a later
entry set them first). `select` chooses a menu entry by id, as `sim.select(name)` does.

Entries must be in time order. An action at time t takes effect at the first frame that
starts at or after t. `load_script` validates everything and reports every problem at once,
one line each `FILE:LINE: key.path: expected …, got …` (DataFileError); `ScriptPlayer`
applies the timeline to anything with a `pad` and a `select(name)`: it is pure code.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict, StringConstraints, ValidationError

from components.pilot import BUTTONS
from engine.datafile import DataFileError, TomlSource, describe, parse_toml, pydantic_errors, read_toml
from game.seed import SEED_EXPECTED, check_seed
from systems.menu import MenuId

#: The menu entries the game itself provides; a level or a mod may add more ("weather:breeze",
#: "air:hot_day", …), checked against the menu when the flight starts.
BUILTIN_ENTRIES = tuple(str(entry) for entry in MenuId)
MAX_TIME_S = 24 * 3600.0  # a day of flight: longer is surely a typo
AXES = ("left", "right", "lt", "rt")
BUTTON_ACTIONS = ("press", "release", "tap", "hold")
ACTIONS = (*BUTTON_ACTIONS, *AXES, "select")


# -- field checks: each returns the clean value or raises ValueError("what was expected") --------
def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _buttons(value: Any) -> tuple[str, ...]:
    expected = f"a button ({' '.join(BUTTONS)}) or a list of buttons"
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n in BUTTONS for n in names):
        raise ValueError(expected)
    return tuple(names)


def _stick(value: Any) -> tuple[float, float]:
    expected = "[x, y] with x (right) and y (up) each from -1 to 1"
    if not (isinstance(value, list) and len(value) == 2):
        raise ValueError(expected)
    for v in value:
        if not (_is_number(v) and -1.0 <= v <= 1.0):
            raise ValueError(f"{expected} (not {describe(v)})")
    return (float(value[0]), float(value[1]))


def _number(low: float, high: float, what: str, low_open: bool = False):
    expected = f"{what} > {low:g} and ≤ {high:g}" if low_open else f"{what} from {low:g} to {high:g}"

    def check(value: Any) -> float:
        if not _is_number(value) or not (low < value if low_open else low <= value) or value > high:
            raise ValueError(expected)
        return float(value)
    return check


def _identifier(what: str):
    def check(value: Any) -> str:
        if not (isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_:\-]*", value) and len(value) <= 80):
            raise ValueError(what)
        return value
    return check


def _wind(value: Any) -> tuple[float, float, float]:
    expected = "[x, y, z] wind in m/s (world frame, where the air goes), each from -60 to 60"
    if not (isinstance(value, list) and len(value) == 3):
        raise ValueError(expected)
    for v in value:
        if not (_is_number(v) and abs(v) <= 60.0):
            raise ValueError(f"{expected} (not {describe(v)})")
    return tuple(float(v) for v in value)  # type: ignore[return-value]


Buttons = Annotated[tuple[str, ...], BeforeValidator(_buttons)]
Stick = Annotated[tuple[float, float], BeforeValidator(_stick)]
Trigger = Annotated[float, BeforeValidator(_number(0.0, 1.0, "a trigger value"))]
Time = Annotated[float, BeforeValidator(_number(0.0, MAX_TIME_S, "a time in seconds"))]
Duration = Annotated[float, BeforeValidator(_number(0.0, MAX_TIME_S, "a duration in seconds", low_open=True))]
EntryId = Annotated[str, BeforeValidator(_identifier(
    f"a menu entry id ({', '.join(BUILTIN_ENTRIES)}, or one the level or a mod adds)"))]
PresetId = Annotated[str, BeforeValidator(_identifier("a weather preset id of the level (its [[weather]] ids)"))]
Text = Annotated[str, Strict(), StringConstraints(max_length=2000)]


def _seed(value: Any) -> int:
    try:
        return check_seed(value)
    except ValueError:
        raise ValueError(SEED_EXPECTED) from None


def _level_ref(value: str) -> str:
    if not value.strip():
        raise ValueError("a shipped level name or a level file path")
    return value


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, populate_by_name=True)


class Entry(_Data):
    """One timeline entry: its time and the pad actions done then."""

    at: Time  # s from the start of the flight
    press: Buttons | None = None
    release: Buttons | None = None
    tap: Buttons | None = None
    hold: Buttons | None = None
    left: Stick | None = None
    right: Stick | None = None
    lt: Trigger | None = None
    rt: Trigger | None = None
    select: EntryId | None = None
    duration: Duration | None = Field(default=None, alias="for")  # s, then back to neutral / released
    note: Text | None = None  # free text, e.g. what this step is for


class ScriptWeather(_Data):
    """Weather at the start: a preset of the level first, then these values over it."""

    preset: PresetId | None = None
    wind: Annotated[tuple[float, float, float], BeforeValidator(_wind)] | None = None  # m/s, world
    density: Annotated[float, BeforeValidator(_number(0.0, 3.0, "an air density in kg/m³"))] | None = None
    gusts: Annotated[float, BeforeValidator(_number(0.0, 30.0, "a gust intensity σ in m/s"))] | None = None


class Header(_Data):
    description: Text | None = None
    level: Annotated[str, Strict(), AfterValidator(_level_ref)] | None = None
    seed: Annotated[int, BeforeValidator(_seed)] = 0
    seconds: Duration | None = None  # s, default flight length
    weather: ScriptWeather | None = None


@dataclass(frozen=True)
class Script:
    """A validated flight script. `entries` are in time order; `lines` maps an entry index to
    its line in the file (for messages during the flight)."""

    path: Path
    header: Header
    entries: tuple[Entry, ...]
    lines: tuple[int, ...]
    source: TomlSource = field(repr=False, compare=False)

    @property
    def level(self) -> str | None:
        """The header's level: a name, or a path resolved against the script's folder."""
        level = self.header.level
        if level is None:
            return None
        if "/" in level or "\\" in level or level.endswith(".toml"):
            return str((self.path.parent / level).resolve()) if not Path(level).is_absolute() else level
        return level

    @property
    def end_s(self) -> float:
        """When the last action (or its `for`) ends, s."""
        return max((e.at + (e.duration or 0.0) for e in self.entries), default=0.0)

    @property
    def seconds(self) -> float:
        """The flight length: the header's `seconds`, else 2 s past the last action."""
        return self.header.seconds if self.header.seconds is not None else self.end_s + 2.0

    def selections(self) -> list[tuple[int, str]]:
        """(entry index, menu entry id) of every menu selection, in time order."""
        return [(i, e.select) for i, e in enumerate(self.entries) if e.select is not None]

    def where(self, index: int, key: str | None = None) -> str:
        """`FILE:LINE` of timeline entry `index` (of its `key` if given)."""
        if key is None:
            return f"{self.path}:{self.lines[index]}"
        return self.source.locate(("timeline", index, key))


# -- loading ------------------------------------------------------------------------------------
def load_script(path: str | Path) -> Script:
    """Read and validate a flight script; DataFileError lists every problem, one line each."""
    return script_from_source(read_toml(path))


def parse_script(text: str, path: str | Path = "<script>") -> Script:
    """Validate script TOML given as text (tests, tools); errors name `path`."""
    return script_from_source(parse_toml(text, path))


def script_from_source(source: TomlSource) -> Script:
    data = dict(source.data)
    errors: list[str] = []
    timeline = data.pop("timeline", None)
    try:
        header = Header.model_validate(data)
    except ValidationError as exc:
        errors += pydantic_errors(source, exc.errors())
        header = None

    entries: list[Entry] = []
    lines: list[int] = []
    if timeline is None:
        errors.append(f"{source.path}:1: timeline: expected [[timeline]] entries (at = seconds, then pad actions), "
                      "got nothing (missing key)")
    elif not isinstance(timeline, list) or not all(isinstance(e, dict) for e in timeline):
        errors.append(f"{source.locate(('timeline',))}: timeline: expected [[timeline]] tables, got {describe(timeline)}")
    elif not timeline:
        errors.append(f"{source.locate(('timeline',))}: timeline: expected at least one entry, got none")
    else:
        previous: tuple[int, float] | None = None  # (index, time) of the last entry with a valid time
        for i, raw in enumerate(timeline):
            where = ("timeline", i)
            entry, bad_keys = None, set()
            try:
                entry = Entry.model_validate(raw)
            except ValidationError as exc:
                errors += pydantic_errors(source, exc.errors(), prefix=where)
                bad_keys = {str(err["loc"][0]) for err in exc.errors() if err.get("loc")}
            entry_errors = [(key, text) for key, text in _entry_errors(raw) if key not in bad_keys]
            errors += [f"{source.locate((*where, key))}: timeline.{i}.{key}: {text}" for key, text in entry_errors]
            at = raw.get("at")
            if "at" not in bad_keys and _is_number(at):
                if previous is not None and at < previous[1]:
                    errors.append(f"{source.locate((*where, 'at'))}: timeline.{i}.at: expected a time ≥ {previous[1]:g} s "
                                  f"(entries in time order; timeline.{previous[0]} is at {previous[1]:g} s), got {at:g}")
                previous = (i, at)
            if entry is not None and not entry_errors:
                entries.append(entry)
                lines.append(source.line_of(where))
    if errors or header is None:
        raise DataFileError(sorted(errors, key=_line_number))
    return Script(path=source.path, header=header, entries=tuple(entries), lines=tuple(lines), source=source)


def _line_number(message: str) -> int:
    m = re.match(r"^.*?:(\d+): ", message)
    return int(m.group(1)) if m else 0


def _entry_errors(raw: dict) -> list[tuple[str, str]]:
    """(key, message) for combinations of keys, which pydantic's per-field checks cannot see.
    Works on the raw table so that they are reported along with any bad value."""
    problems = []
    actions = [a for a in ACTIONS if a in raw]
    if not actions:
        problems.append(("at", f"expected at least one action with the time ({', '.join(ACTIONS)}), got none"))
    if "hold" in raw and "for" not in raw:
        problems.append(("hold", "expected `for = seconds` with hold (how long to hold), got no `for`"))
    if "for" in raw and not any(a in raw for a in ("hold", *AXES)):
        problems.append(("for", f"expected `for` only with hold, left, right, lt or rt, got it with "
                                f"{', '.join(actions) or 'no action'}"))
    buttons: dict[str, str] = {}
    for action in BUTTON_ACTIONS:
        try:
            names = _buttons(raw[action]) if action in raw else ()
        except ValueError:  # pydantic reports the value itself
            continue
        for button in names:
            if button in buttons:
                problems.append((action, f"expected each button once per entry, got {button} in both "
                                         f"{buttons[button]} and {action}"))
            buttons.setdefault(button, action)
    return problems


# -- playing ------------------------------------------------------------------------------------
_EPS_S = 1e-9


class ScriptPlayer:
    """Applies a script's timeline to a simulation, frame by frame.

    Call `apply(sim, t)` before each frame with the script time `t` (seconds since the
    flight began, counted by the caller so that a Restart in the script does not replay it):
    every action due at or before `t` is done, in file order. `sim` needs a `pad` (the
    virtual gamepad) and `select(name)`. A selection the menu does not offer is skipped and
    reported through `warn(line)`.
    """

    def __init__(self, script: Script, warn=None) -> None:
        self.script = script
        self.warn = warn
        self._queue: list[tuple[float, int, int, str, int, Any]] = []  # (time, phase, order, kind, entry, arg)
        self._order = 0
        self._writer: dict[str, int] = {}  # control → index of the entry that last set it
        for index, entry in enumerate(script.entries):
            self._push(entry.at, 1, "entry", index, entry)

    def _push(self, time_s: float, phase: int, kind: str, index: int, arg: Any) -> None:
        # phase 0 (a `for` ending) before phase 1 (an entry) at the same time: a hold that ends
        # when the next press of the same button begins is released first, so the press is an edge
        heapq.heappush(self._queue, (time_s, phase, self._order, kind, index, arg))
        self._order += 1

    @property
    def done(self) -> bool:
        return not self._queue

    def apply(self, sim, t: float) -> None:
        queue = self._queue
        while queue and queue[0][0] <= t + _EPS_S:
            _, _, _, kind, index, arg = heapq.heappop(queue)
            if kind == "entry":
                self._do_entry(sim, index, arg)
            elif self._writer.get(arg) == index:  # a `for` ends, unless a later entry took this control
                self._neutral(sim.pad, arg)

    def _do_entry(self, sim, index: int, entry: Entry) -> None:
        pad = sim.pad
        for button in entry.release or ():
            pad.release(button)
            self._writer[button] = index
        for button in (*(entry.press or ()), *(entry.hold or ()), *(entry.tap or ())):
            pad.press(button)
            self._writer[button] = index
        for button in entry.tap or ():  # released in the same frame: the press edge is still seen
            pad.release(button)
        for axis in AXES:
            value = getattr(entry, axis)
            if value is not None:
                setattr(pad, axis, value)
                self._writer[axis] = index
        if entry.duration is not None:
            for control in (*(entry.hold or ()), *(a for a in AXES if getattr(entry, a) is not None)):
                self._push(entry.at + entry.duration, 0, "end", index, control)
        if entry.select is not None:
            try:
                sim.select(entry.select)
            except ValueError as exc:
                if self.warn is not None:
                    self.warn(f"{self.script.where(index, 'select')}: timeline.{index}.select: {exc}; skipped")

    @staticmethod
    def _neutral(pad, control: str) -> None:
        if control in ("left", "right"):
            setattr(pad, control, (0.0, 0.0))
        elif control in ("lt", "rt"):
            setattr(pad, control, 0.0)
        else:
            pad.release(control)
