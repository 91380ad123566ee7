"""Tutorial conditions: a tiny, safe language over the drone's telemetry (no eval).

A tutorial step (a level's `[[tutorial.steps]]`) advances when its `condition` has held for
`hold_s` seconds. A condition is one or more comparisons joined by `and` / `or`:

    condition  := conjunction ("or" conjunction)*
    conjunction:= comparison ("and" comparison)*
    comparison := FIELD OP VALUE
    OP         := "<" | "<=" | ">" | ">=" | "==" | "!="
    VALUE      := a number (-1, 0.2, 3e2) | a "double-quoted" string | true | false

`and` binds tighter than `or` (as in Python); there are no parentheses. A number field
compares with a number; a text field (`mode`, `landed_on`, `mission_status`,
`landing_refused`) with a string, by `==` / `!=` only; a yes/no field (`armed`, `contact`,
`landed`) with `true` / `false`, by `==` / `!=` only. `height_above_ground` is missing over
nothing: any comparison with a missing value is false.

`parse_condition(text)` returns a `Condition` or raises `ConditionError` (a ValueError)
whose message says what was expected and where; `Condition.holds(values)` evaluates it
against a mapping field → value (`FIELDS` lists them, with their kind and meaning).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping

#: field → (kind, meaning). Kinds: "number", "text", "bool". Most are telemetry fields of the
#: same name (docs/api.md#telemetry); the others are derived from the drone's state.
FIELDS: dict[str, tuple[str, str]] = {
    "time": ("number", "s since the flight started"),
    "mode": ("text", '"manual", "angle", "acro", "takeoff", "landing", "mission" or a mod\'s'),
    "armed": ("bool", "the motors are armed"),
    "motor_power": ("number", "MotorPower in [0, 1]"),
    "roll_deg": ("number", "roll, degrees"),
    "pitch_deg": ("number", "pitch, degrees"),
    "yaw_deg": ("number", "yaw, degrees counter-clockwise from +X"),
    "target_altitude": ("number", "ManualTargetAltitude, m, world"),
    "height_above_ground": ("number", "m to the surface under the drone (missing over nothing)"),
    "contact": ("bool", "touching something"),
    "battery_fraction": ("number", "energy left, fraction in [0, 1]"),
    "power_w": ("number", "electrical power drawn, W"),
    "damage": ("number", "accumulated damage, 0 = intact"),
    "crashed": ("bool", "an impact or the damage ended the flight (until Restart)"),
    "landing_refused": ("text", 'why the last landing was refused ("" if it was not)'),
    "mission_status": ("text", "the mission's status (telemetry mission.status)"),
    # derived
    "speed": ("number", "m/s, length of the velocity"),
    "horizontal_speed": ("number", "m/s, length of the velocity's x, y"),
    "vertical_speed": ("number", "m/s, velocity z (up positive)"),
    "height": ("number", "m, world z of the centre of mass (position z)"),
    "x": ("number", "m, world x of the centre of mass"),
    "y": ("number", "m, world y of the centre of mass"),
    "landed": ("bool", "resting on a surface"),
    "landed_on": ("text", 'id of the pad the drone rests on ("" when not resting on a pad)'),
}

OPERATORS = ("<=", ">=", "==", "!=", "<", ">")
MAX_CONDITION_CHARS = 500
MAX_COMPARISONS = 32

_TOKEN = re.compile(r"""\s*(?:
    (?P<number>[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<string>"[^"\\\n]*")
  | (?P<op><=|>=|==|!=|<|>)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
)""", re.VERBOSE)


class ConditionError(ValueError):
    """A condition that does not parse; the message says what was expected, got what, where."""


@dataclass(frozen=True)
class Comparison:
    field: str
    op: str
    value: float | str | bool

    def holds(self, values: Mapping[str, object]) -> bool:
        have = values.get(self.field)
        if have is None:
            return False
        if isinstance(self.value, bool):
            return (bool(have) == self.value) == (self.op == "==")
        if isinstance(self.value, str):
            return (str(have) == self.value) == (self.op == "==")
        try:
            a = float(have)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False
        if not math.isfinite(a):
            return False
        b = self.value
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[self.op]

    def __str__(self) -> str:
        v = self.value
        text = ("true" if v else "false") if isinstance(v, bool) else f'"{v}"' if isinstance(v, str) else f"{v:g}"
        return f"{self.field} {self.op} {text}"


@dataclass(frozen=True)
class Condition:
    """Alternatives (`or`) of conjunctions (`and`) of comparisons."""

    alternatives: tuple[tuple[Comparison, ...], ...]

    def holds(self, values: Mapping[str, object]) -> bool:
        return any(all(c.holds(values) for c in conj) for conj in self.alternatives)

    def fields(self) -> set[str]:
        return {c.field for conj in self.alternatives for c in conj}

    def __str__(self) -> str:
        return " or ".join(" and ".join(str(c) for c in conj) for conj in self.alternatives)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, column 1-based) for each token."""
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            column = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise ConditionError(f"a field, an operator, a number or a \"string\" at column {column}, "
                                 f"found {text[column - 1:column + 9]!r}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    return out


def parse_condition(text: str) -> Condition:
    """`text` → a Condition; ConditionError (ValueError) names what was expected and where."""
    if not isinstance(text, str):
        raise ConditionError("a condition as text")
    if len(text) > MAX_CONDITION_CHARS:
        raise ConditionError(f"a condition of at most {MAX_CONDITION_CHARS} characters")
    tokens = _tokens(text)
    if not tokens:
        raise ConditionError('a condition such as `motor_power >= 0.2` or `mode == "manual"`')
    alternatives: list[tuple[Comparison, ...]] = []
    conj: list[Comparison] = []
    i, count = 0, 0
    while True:
        if len(tokens) - i < 3:
            where = f"column {tokens[i][2]}" if i < len(tokens) else "the end"
            raise ConditionError(f"a comparison `field operator value` at {where}")
        (fk, field, fc), (ok, op, oc), (vk, raw, vc) = tokens[i:i + 3]
        if fk != "word" or field in ("and", "or", "true", "false"):
            raise ConditionError(f"a field name at column {fc}, found {field!r}")
        if field not in FIELDS:
            raise ConditionError(f"a known field at column {fc} ({', '.join(FIELDS)}), found {field!r}")
        if ok != "op":
            raise ConditionError(f"an operator ({' '.join(OPERATORS)}) at column {oc}, found {op!r}")
        kind = FIELDS[field][0]
        value: float | str | bool
        if kind == "number":
            if vk != "number":
                raise ConditionError(f"a number after {field} {op} at column {vc}, found {raw!r}")
            value = float(raw)
            if not math.isfinite(value):
                raise ConditionError(f"a finite number at column {vc}, found {raw!r}")
        else:
            if op not in ("==", "!="):
                raise ConditionError(f"== or != with the {kind} field {field} at column {oc}, found {op!r}")
            if kind == "text":
                if vk != "string":
                    raise ConditionError(f'a "double-quoted" string after {field} {op} at column {vc}, found {raw!r}')
                value = raw[1:-1]
            else:
                if raw not in ("true", "false"):
                    raise ConditionError(f"true or false after {field} {op} at column {vc}, found {raw!r}")
                value = raw == "true"
        conj.append(Comparison(field, op, value))
        count += 1
        if count > MAX_COMPARISONS:
            raise ConditionError(f"at most {MAX_COMPARISONS} comparisons")
        i += 3
        if i == len(tokens):
            alternatives.append(tuple(conj))
            return Condition(tuple(alternatives))
        joiner, jc = tokens[i][1], tokens[i][2]
        if tokens[i][0] != "word" or joiner not in ("and", "or"):
            raise ConditionError(f"`and`, `or` or the end at column {jc}, found {joiner!r}")
        if joiner == "or":
            alternatives.append(tuple(conj))
            conj = []
        i += 1


PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")

#: the actions a step's text may name as `{action}`: the game's bindable actions
#: (game/input/keyboard.py ACTIONS; a test keeps the two lists equal).
ACTION_NAMES = ("move_forward", "move_back", "move_left", "move_right", "yaw_left", "yaw_right", "power_up",
                "power_down", "climb", "descend", "confirm", "brake", "takeoff", "land", "menu", "camera", "pause",
                "restart", "controls", "fullscreen", "screenshot", "hud")


def placeholders(text: str) -> list[str]:
    """The `{action}` names a step's text uses."""
    return PLACEHOLDER.findall(text)


def fill(text: str, keys: Mapping[str, str]) -> str:
    """`text` with each `{action}` replaced by `keys[action]` (unknown ones left as they are)."""
    return PLACEHOLDER.sub(lambda m: keys.get(m.group(1), m.group(0)), text)


@dataclass
class TutorialProgress:
    """Where a tutorial is: the current step index and how long its condition has held.

    `advance(conditions, holds_s, values, dt)` — pure bookkeeping, one call per tick —
    returns the indices of the steps completed by this call (at most one per call).
    """

    step: int = 0
    held_s: float = 0.0

    def finished(self, count: int) -> bool:
        return self.step >= count

    def advance(self, conditions: list[Condition], holds_s: list[float], values: Mapping[str, object],
                dt: float) -> list[int]:
        if self.step >= len(conditions):
            return []
        if conditions[self.step].holds(values):
            self.held_s += dt
            if self.held_s >= holds_s[self.step] - 1e-9:
                done = self.step
                self.step += 1
                self.held_s = 0.0
                return [done]
        else:
            self.held_s = 0.0
        return []
