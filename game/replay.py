"""Replays: what is needed to fly a flight again, exactly.

The simulation is deterministic — the same inputs and seed give bit-identical telemetry — so a
flight is its inputs: how the Simulation was made (level, seed, weather, spawn, vehicle), then
per frame the virtual pad as the INPUT stage read it and the frame's length, and the headless
verbs called between frames (`select`, `set_mode`, `reset`, `set_weather`, `apply_level` — a
level loaded in place, by name or path and content hash — and `add_drone`: a drone added where it
was put; what flies it afterwards from outside, a Tello SDK client or a script on its own pad,
is not the player's input and is not recorded). A `Recorder`
attached to a Simulation notes them as they happen (`sim.record()`); `replay()` makes the same
Simulation and plays them back.

A replay file (`*.replay`) is gzip-compressed JSON lines, documented in docs/api.md#replays:

- line 1, the header: `{"format": "donify-replay", "version": 1, "donify": "0.1.0",
  "level": {"name": …, "sha256": …} | null, "vehicle": {"name": …, "sha256": …},
  "simulation": {"level": …, "seed": …, "density": …, "wind": …, "position": …, "yaw_deg": …},
  "mods": [names], "frames": N}`;
- then one line per frame: only what changed since the frame before — `dt` (s), `left`,
  `right` (stick pairs), `lt`, `rt`, `held` (buttons held), `presses` (buttons pressed since
  the last frame, in order), `calls` ([[verb, {arguments}]], made before the frame). `{}` is a
  frame like the one before.

Floats are written with Python's shortest round-trip representation, so they read back to the
same bits. The level's hash is over its content (the validated model, not the file's comments
or layout); the vehicle's over the arrays the flight code reads. A replay of another level
version, another vehicle or another Donify version is refused with one line saying which
differs: a replay that silently diverged would be worse than none.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import zlib
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Iterator

from engine.datafile import DataFileError, check_regular_file
from flight.vehicle import Vehicle
from game.atomic import atomic_path
from world.level import Level

FORMAT = "donify-replay"
FORMAT_VERSION = 1
# the Simulation calls a replay carries, each with the arguments it may name
VERB_ARGUMENTS = {
    "select": ("name",), "set_mode": ("mode",), "reset": (),
    "set_weather": ("preset", "wind", "density", "gusts", "rain"),
    "apply_level": ("level", "sha256"), "add_drone": ("position", "yaw_deg", "vehicle"),
}
VERBS = tuple(VERB_ARGUMENTS)
MAX_FILE_BYTES = 200 * 1024 * 1024  # compressed; a 10-minute flight is well under 1 MB


def donify_version() -> str:
    try:
        return version("donify")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def level_hash(level: Level | None) -> str | None:
    """Over the level's content: its validated model as canonical JSON (comments, key order and
    number spelling in the file do not count; any change to what is flown does)."""
    if level is None:
        return None
    canonical = json.dumps(level.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def vehicle_hash(vehicle: Vehicle) -> str:
    """Over the arrays the flight code reads: every parameter, in SI, as flown."""
    return hashlib.sha256(vehicle.physics.tobytes() + vehicle.gains.tobytes()).hexdigest()


@dataclass
class Recording:
    """A flight as inputs (see the module docstring); `frames` are the delta-encoded lines."""

    header: dict[str, Any]
    frames: list[dict[str, Any]] = field(default_factory=list)

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save never leaves a half-written replay."""
        header = dict(self.header, frames=len(self.frames))
        with atomic_path(path) as tmp, gzip.open(tmp, "wt", encoding="utf-8", newline="\n") as out:
            out.write(json.dumps(header, separators=(",", ":"), allow_nan=False) + "\n")
            for frame in self.frames:
                out.write(json.dumps(frame, separators=(",", ":"), allow_nan=False) + "\n")


class Recorder:
    """Notes a Simulation's inputs as it flies (made by `Simulation.record()`)."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.recording = Recording(header)
        self._last: dict[str, Any] = {}
        self._calls: list[list] = []

    def call(self, verb: str, arguments: dict[str, Any]) -> None:
        """A headless verb called before the next frame."""
        self._calls.append([verb, _plain(arguments)])

    def frame(self, pad, dt: float) -> None:
        """The pad as this frame's INPUT stage will read it, and the frame's length."""
        now = {"dt": float(dt), "left": list(pad.left), "right": list(pad.right), "lt": pad.lt, "rt": pad.rt,
               "held": sorted(pad.held)}
        line = {k: v for k, v in now.items() if self._last.get(k) != v}
        if pad.presses:  # edges: written on the frames that have them, never carried over
            line["presses"] = list(pad.presses)
        if self._calls:
            line["calls"] = self._calls
            self._calls = []
        self._last = now
        self.recording.frames.append(line)


def _plain(arguments: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in arguments.items() if v is not None}


# -- reading ------------------------------------------------------------------------------------
def load_replay(path: str | Path) -> Recording:
    """Read a replay file; a bad one raises DataFileError with one located line."""
    path = Path(path)
    check_regular_file(path, expected="a replay file (.replay)")
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            lines = iter(f)
            header = _header(path, next(lines, None))
            frames = [_frame(path, number, line) for number, line in enumerate(lines, start=2)]
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise DataFileError([f"{path}: expected a gzip-compressed Donify replay, got unreadable data ({exc})"]) from None
    if header.get("frames") != len(frames):
        raise DataFileError([f"{path}: expected {header.get('frames')} frames (the header says so), got {len(frames)}: "
                             f"the file is cut short"])
    return Recording(header, frames)


def _header(path: Path, line: str | None) -> dict[str, Any]:
    if line is None:
        raise DataFileError([f"{path}:1: expected a replay header, got an empty file"])
    try:
        header = json.loads(line)
    except ValueError as exc:
        raise DataFileError([f"{path}:1: expected a JSON header, got {exc}"]) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise DataFileError([f"{path}:1: expected a Donify replay (format {FORMAT!r}), got something else"])
    if header.get("version") != FORMAT_VERSION:
        raise DataFileError([f"{path}:1: version: expected {FORMAT_VERSION}, got {header.get('version')!r}"])
    for key, kind in (("simulation", dict), ("vehicle", dict), ("mods", list), ("frames", int), ("donify", str)):
        if not isinstance(header.get(key), kind):
            raise DataFileError([f"{path}:1: {key}: expected a {kind.__name__}, got {header.get(key)!r}"])
    return header


_FRAME_KEYS = {"dt", "left", "right", "lt", "rt", "held", "presses", "calls"}


def _frame(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        frame = json.loads(line)
    except ValueError as exc:
        raise DataFileError([f"{path}:{number}: expected a JSON frame, got {exc}"]) from None
    if not isinstance(frame, dict) or not set(frame) <= _FRAME_KEYS:
        raise DataFileError([f"{path}:{number}: expected a frame with keys among {', '.join(sorted(_FRAME_KEYS))}, "
                             f"got {line.strip()[:80]!r}"])
    dt = frame.get("dt", 1.0)
    if isinstance(dt, bool) or not isinstance(dt, (int, float)) or not math.isfinite(dt) or dt <= 0:
        raise DataFileError([f"{path}:{number}: dt: expected a number of seconds > 0, got {dt!r}"])
    calls = frame.get("calls", [])
    if not isinstance(calls, list):
        raise DataFileError([f"{path}:{number}: calls: expected a list of [verb, {{arguments}}], got {calls!r:.80}"])
    for i, item in enumerate(calls):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict)):
            raise DataFileError([f"{path}:{number}: calls.{i}: expected [verb, {{arguments}}], got {item!r:.80}"])
        verb, arguments = item
        if verb not in VERBS:
            raise DataFileError([f"{path}:{number}: calls.{i}: expected one of {', '.join(VERBS)}, got {verb!r:.40}"])
        unknown = sorted(set(arguments) - set(VERB_ARGUMENTS[verb]))
        if unknown:
            allowed = ", ".join(VERB_ARGUMENTS[verb]) or "none"
            raise DataFileError([f"{path}:{number}: calls.{i}: {verb}: expected arguments among {allowed}, "
                                 f"got {unknown[0]!r:.40}"])
    return frame


# -- flying it again ----------------------------------------------------------------------------
def check_matches(path: str | Path, header: dict[str, Any], level: Level | None, vehicle: Vehicle,
                  mods: list[str]) -> None:
    """Refuse, in one line, a replay recorded with another level version, vehicle, Donify
    version or set of mods: flown here it would diverge."""
    problems = []
    recorded = header.get("level")
    if (recorded or {}).get("sha256") != level_hash(level):
        name = (recorded or {}).get("name", "no level")
        problems.append(f"the level differs (recorded in {name!r} version {str((recorded or {}).get('sha256'))[:12]}, "
                        f"here {level.name if level else 'no level'!r} version {str(level_hash(level))[:12]})")
    if header["vehicle"].get("sha256") != vehicle_hash(vehicle):
        problems.append(f"the vehicle differs (recorded with {header['vehicle'].get('name')!r} "
                        f"{str(header['vehicle'].get('sha256'))[:12]}, here {vehicle.name!r} {vehicle_hash(vehicle)[:12]})")
    if header["donify"] != donify_version():
        problems.append(f"Donify's version differs (recorded with {header['donify']}, this is {donify_version()})")
    if sorted(header["mods"]) != sorted(mods):
        problems.append(f"the mods differ (recorded with {header['mods'] or 'none'}, here {mods or 'none'})")
    if problems:
        raise DataFileError([f"{path}: refused: {'; '.join(problems)}: flown here it would not be the same flight"])


def frames_of(recording: Recording) -> Iterator[tuple[dict[str, Any], list]]:
    """Each frame's full pad state and the calls made before it, decoded from the deltas."""
    state = {"dt": 1.0 / 60.0, "left": [0.0, 0.0], "right": [0.0, 0.0], "lt": 0.0, "rt": 0.0, "held": [], "presses": []}
    for line in recording.frames:
        state = {**state, **{k: v for k, v in line.items() if k != "calls"}}
        state["presses"] = line.get("presses", [])  # edges: only the frames that list them have any
        yield state, line.get("calls", [])


def apply_frame(sim, state: dict[str, Any]) -> None:
    """Put the pad in the recorded state (exactly: the set of held buttons and the presses)."""
    pad = sim.pad
    pad.left = tuple(state["left"])
    pad.right = tuple(state["right"])
    pad.lt = state["lt"]
    pad.rt = state["rt"]
    pad.held.clear()
    pad.held.update(state["held"])
    pad.presses[:] = state["presses"]


def play_calls(sim, calls: list, where: str) -> None:
    """Make a frame's recorded calls on `sim`. A call the Simulation refuses (a hand-edited or
    damaged file: a drone put in a building, a menu entry that does not exist, a wind of words)
    is DataFileError, one line at `where` (FILE:LINE), never the Simulation's own exception."""
    for i, (verb, arguments) in enumerate(calls):
        try:
            getattr(sim, verb)(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in arguments.items()})
        except DataFileError as exc:  # a level or vehicle file the call names
            raise DataFileError([f"{where}: calls.{i}: {verb}: {exc.lines[0]}", *exc.lines[1:]]) from None
        except (ValueError, TypeError, OSError) as exc:
            raise DataFileError([f"{where}: calls.{i}: {verb}: {exc}"]) from None
