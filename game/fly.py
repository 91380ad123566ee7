"""`donify fly`: a scripted flight, headless, with telemetry and a summary.

    donify fly --level street --script examples/street_manual.toml --seconds 30 --telemetry out.jsonl

The script (game/script.py, format in examples/README.md) is played on the headless
`Simulation` frame by frame (frames of 1/60 s). After each frame one telemetry record
(`sim.telemetry().as_dict()`, the field names of docs/api.md#telemetry) is written as a JSON line. The
file is written atomically: a temporary file beside it, renamed at the end, so an interrupted
or failed run never leaves a partial file (nor replaces an older complete one). Ctrl-C and
SIGTERM remove the temporary file on the way out (exit 130, 143); after a SIGKILL, which
nothing can catch, the next run writing the same file removes it (game/atomic.py). A progress bar
shows on a terminal (stderr only, so the summary on stdout stays clean); the run ends with a
summary: distance flown, max speed, energy used, contacts, damage, mission result, final mode.

Errors are one line each and never a traceback: bad arguments raise ValueError (exit 2),
bad files DataFileError (exit 1), as the CLI maps them.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, TextIO

from engine.datafile import DataFileError
from game.atomic import atomic_path, check_output_path
from game.replay import apply_frame, frames_of, play_calls
from game.wording import counted
from game.script import BUILTIN_ENTRIES, Script, ScriptPlayer, load_script
from game.seed import SEED_EXPECTED, check_seed
from systems.course import COURSE_PREFIX

FRAME_S = 1.0 / 60.0  # the game's frame (game.simulation.FRAME_S)


def is_restart(before: dict, after: dict) -> bool:
    """Whether a Restart / ResetFlight happened between two consecutive records: only a
    Restart recharges the pack (energy never rises otherwise: even resting, the electronics
    draw 2.5 W), and the clock may start again from 0."""
    return (after["battery_energy_wh"] > before["battery_energy_wh"] + 1e-12
            or after["time"] < before["time"] - 1e-9)


# -- the summary ------------------------------------------------------------------------------
@dataclass
class FlightSummary:
    """What a flight did, accumulated from its telemetry records (dicts with the telemetry field names)."""

    frames: int = 0
    seconds: float = 0.0  # script time flown, s
    distance_m: float = 0.0  # path length of the centre of mass (Restart jumps excluded)
    max_speed_m_s: float = 0.0  # |velocity|
    max_horizontal_speed_m_s: float = 0.0
    max_altitude_m: float = -math.inf  # world z
    energy_used_wh: float = 0.0  # drawn from the pack (a Restart's recharge not subtracted)
    contacts: int = 0  # contact starts (not counting the contact the flight began in)
    restarts: int = 0
    damage: float = 0.0  # at the end
    max_damage: float = 0.0
    mission: dict = field(default_factory=dict)  # at the end: status, waypoint_index, …
    course: dict = field(default_factory=dict)  # at the end: course_id, status, gate, gates, time_s, splits
    final_mode: str = ""
    armed: bool = False
    motor_power: float = 0.0
    battery_fraction: float = 1.0
    _last: dict | None = None

    def add(self, record: dict, frame_s: float = FRAME_S) -> None:
        """Account one record; the first one given (before any frame) is only the baseline."""
        last = self._last
        self._last = record
        if last is None:
            self.max_altitude_m = record["position"][2]
            return
        self.frames += 1
        self.seconds += frame_s
        restarted = is_restart(last, record)  # the drone was put back on the spawn pad: not flown
        if restarted:
            self.restarts += 1
        else:
            self.distance_m += math.dist(record["position"], last["position"])
            self.energy_used_wh += max(0.0, last["battery_energy_wh"] - record["battery_energy_wh"])
        velocity = record["velocity"]
        self.max_speed_m_s = max(self.max_speed_m_s, math.hypot(*velocity))
        self.max_horizontal_speed_m_s = max(self.max_horizontal_speed_m_s, math.hypot(velocity[0], velocity[1]))
        self.max_altitude_m = max(self.max_altitude_m, record["position"][2])
        # the first frame settles the contact the flight starts in (on the pad), a Restart puts the
        # drone back on it: neither is a contact start
        if record["contact"] and not last["contact"] and self.frames > 1 and not restarted:
            self.contacts += 1
        self.damage = record["damage"]
        self.max_damage = max(self.max_damage, record["damage"])
        self.mission = dict(record.get("mission") or {})
        self.course = dict(record.get("course") or {})
        self.final_mode = record["mode"]
        self.armed = record["armed"]
        self.motor_power = record["motor_power"]
        self.battery_fraction = record["battery_fraction"]

    def lines(self) -> list[str]:
        mission = self.mission or {}
        status = mission.get("status", "none")
        index = mission.get("waypoint_index")
        extra = "".join(f", {k} {v}" for k, v in mission.items()
                        if k not in ("status", "waypoint_index") and v not in ("", None))
        return [
            f"  distance flown     {self.distance_m:9.1f} m",
            f"  max speed          {self.max_speed_m_s:9.2f} m/s (horizontal {self.max_horizontal_speed_m_s:.2f} m/s)",
            f"  max altitude       {self.max_altitude_m:9.2f} m",
            f"  energy used        {self.energy_used_wh * 1000:9.1f} mWh (pack now at {self.battery_fraction * 100:.1f} %)",
            f"  contacts           {self.contacts:9d} (contact starts)" + (f", {counted(self.restarts, 'restart')}" if self.restarts else ""),
            f"  damage             {self.damage:9.3f}" + (f" (max {self.max_damage:.3f})" if self.max_damage > self.damage else ""),
            f"  mission            {status:>9}, waypoint index {index}{extra}",
            f"  final mode         {self.final_mode:>9} ({'armed' if self.armed else 'disarmed'}, "
            f"MotorPower {self.motor_power:.2f})",
        ] + self.course_lines()

    def course_lines(self) -> list[str]:
        """The course line, when the flight ran one: status, time, gates passed."""
        course = self.course or {}
        if not course.get("course_id"):
            return []
        return [f"  course             {course['status']:>9}, time {course['time_s']:.2f} s, gates "
                f"{course['gate']}/{course['gates']} ({course['course_id']})"]


# -- the flight -------------------------------------------------------------------------------
def fly(script: Script, *, level: str | None = None, seconds: float | None = None, seed: int | None = None,
        telemetry: str | Path | None = None, progress: TextIO | None = None,
        warn: Callable[[str], None] | None = None, plugins=(), strict_mods: bool = False,
        record: str | Path | None = None) -> FlightSummary:
    """Fly `script` headless and return its summary.

    Args:
        level: level name or path; default the script's `level`, else "street".
        seconds: flight length, s; default the script's (`seconds`, else 2 s past its last action).
        seed: default the script's.
        telemetry: JSONL file to write (one record per frame, atomically), or None.
        progress: a stream for the progress bar (shown only if it is a terminal), or None.
        warn: receives one-line warnings (a menu entry the level does not offer, …).
        plugins, strict_mods: mods to fly with (as `Simulation`).
        record: a replay file to write (game/replay.py), or None.
    """
    from game.simulation import Simulation  # noqa: PLC0415 (the flight core is heavy to import)

    seconds = script.seconds if seconds is None else seconds
    frames = max(1, math.ceil(seconds / FRAME_S - 1e-9))
    level = level if level is not None else (script.level or "street")
    seed = script.header.seed if seed is None else seed
    weather = script.header.weather
    kwargs = {}
    if weather is not None and weather.preset is None:  # a preset is applied first, then the values over it
        kwargs = {k: v for k, v in (("wind", weather.wind), ("density", weather.density)) if v is not None}
    sim = Simulation(level=level, seed=seed, plugins=plugins, strict_mods=strict_mods, **kwargs)
    try:
        recorder = None if record is None else sim.record()  # from the start: the weather set below is an input too
        errors = _start_weather(sim, script) + _selection_errors(sim, script, warn)
        if errors:
            raise DataFileError(errors)
        player = ScriptPlayer(script, warn=warn)
        summary = FlightSummary()
        summary.add(sim.telemetry().as_dict())
        if telemetry is None:
            _frames(sim, _scripted(sim, player, frames), frames, summary, None, progress)
        else:
            with atomic_path(telemetry) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as out:
                _frames(sim, _scripted(sim, player, frames), frames, summary, out, progress)
        if recorder is not None:
            recorder.recording.save(record)
        return summary
    finally:
        sim.close()


def fly_replay(path: str | Path, *, telemetry: str | Path | None = None, progress: TextIO | None = None,
               plugins=()) -> FlightSummary:
    """Fly a replay file again, headless: the same Simulation, the same inputs frame by frame, so
    the telemetry written is bit-identical to the recorded flight's. A replay recorded with
    another level version, vehicle, Donify version or mods is refused (DataFileError)."""
    from game.replay_playback import open_replay  # noqa: PLC0415 (the flight core is heavy to import)

    recording, sim = open_replay(path, plugins)
    try:
        summary = FlightSummary()
        summary.add(sim.telemetry().as_dict())
        frames = len(recording.frames)
        if telemetry is None:
            _frames(sim, _replayed(sim, recording, path), frames, summary, None, progress)
        else:
            with atomic_path(telemetry) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as out:
                _frames(sim, _replayed(sim, recording, path), frames, summary, out, progress)
        return summary
    finally:
        sim.close()


def _scripted(sim, player: ScriptPlayer, frames: int) -> Iterator[float]:
    """Each frame's inputs from the script, then the frame's length."""
    for frame in range(frames):
        player.apply(sim, frame * FRAME_S)  # script time, not the sim clock: a Restart resets that
        yield FRAME_S


def _replayed(sim, recording, path) -> Iterator[float]:
    """Each frame's recorded calls and pad, then the frame's length."""
    for line, (state, calls) in enumerate(frames_of(recording), start=2):  # line 1 is the header
        play_calls(sim, calls, f"{path}:{line}")
        apply_frame(sim, state)
        yield state["dt"]


def _frames(sim, inputs: Iterator[float], frames: int, summary: FlightSummary, out: TextIO | None,
            progress: TextIO | None) -> None:
    """Fly: for each frame `inputs` sets the pad and says how long the frame is; one telemetry
    record per frame into the summary and, if `out`, as a JSON line."""
    bar = _progress_bar(frames, progress)
    try:
        for dt in inputs:
            sim.step(dt)
            record = sim.telemetry().as_dict()
            summary.add(record)
            if out is not None:
                out.write(json.dumps(record, allow_nan=False, separators=(",", ":")))
                out.write("\n")
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()


def _progress_bar(frames: int, stream: TextIO | None):
    if stream is None or not _is_terminal(stream):
        return None
    from tqdm import tqdm  # noqa: PLC0415

    return tqdm(total=frames, unit="frame", desc="flying", file=stream, leave=False, dynamic_ncols=True)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _start_weather(sim, script: Script) -> list[str]:
    """Apply the script's weather preset and gusts; the problems as located lines."""
    weather = script.header.weather
    if weather is None or (weather.preset is None and weather.gusts is None):
        return []
    values = {"preset": weather.preset, "gusts": weather.gusts}
    if weather.preset is not None:  # wind and density go over the preset's
        values.update(wind=weather.wind, density=weather.density)
    try:
        sim.set_weather(**values)
    except ValueError as exc:
        key = "preset" if weather.preset is not None and "preset" in str(exc) else "gusts"
        return [f"{script.source.locate(('weather', key))}: weather.{key}: {exc}"]
    return []


def _selection_errors(sim, script: Script, warn) -> list[str]:
    """Before flying: a selection of an entry the menu does not offer is an error, unless it
    is one of the game's own entries or a course (its feature may be absent from this level or
    build: the selection is then skipped with a warning)."""
    from systems.menu import Menu  # noqa: PLC0415

    offered = sim.app.resource(Menu).ids()
    errors = []
    for index, name in script.selections():
        if name in offered:
            continue
        where = script.where(index, "select")
        if name in BUILTIN_ENTRIES or name.startswith(COURSE_PREFIX):
            if warn is not None:
                warn(f"{where}: timeline.{index}.select: {name!r} is not offered by the menu in this level "
                     f"(offered: {', '.join(offered)}); it will be skipped")
        else:
            errors.append(f"{where}: timeline.{index}.select: expected a menu entry offered here "
                          f"({', '.join(offered)}), got {name!r}")
    return errors


# -- the command --------------------------------------------------------------------------------
def run_fly(level: str | None, script_path: str | None, seconds: str | None, telemetry: str | None,
            seed: str | None = None, out: TextIO | None = None, err: TextIO | None = None,
            plugins=(), strict_mods: bool = False, record: str | None = None) -> int:
    """`donify fly`: check the arguments, fly, print the summary. Exit status 0.

    Raises ValueError (usage, exit 2) or DataFileError (bad file, exit 1), one line each.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    if not script_path:
        raise ValueError("fly: expected --script FILE (a flight script, see examples/README.md)")
    seconds_value = None if seconds is None else _positive_seconds(seconds)
    seed_value = None if seed is None else _seed(seed)
    if telemetry is not None:
        check_output_path(telemetry, "fly: --telemetry")
    if record is not None:
        check_output_path(record, "fly: --record")
    script = load_script(script_path)
    def warn(line: str) -> None:
        if _is_terminal(err):
            from tqdm import tqdm  # noqa: PLC0415 (keep the progress bar intact)
            tqdm.write(f"donify: {line}", file=err)
        else:
            print(f"donify: {line}", file=err)

    level_name = level if level is not None else (script.level or "street")
    try:
        with _terminate_as_exit():
            summary = fly(script, level=level_name, seconds=seconds_value, seed=seed_value, telemetry=telemetry,
                          progress=err, warn=warn, plugins=plugins, strict_mods=strict_mods, record=record)
    except OSError as exc:  # the telemetry or replay file could not be written (permissions, disk full)
        raise DataFileError([f"{exc.filename or telemetry}: cannot write it: {exc.strerror or exc}"]) from None
    print(f"Donify scripted flight — {script.path} on level {level_name!r}: {summary.seconds:.2f} s simulated "
          f"({counted(summary.frames, 'frame')})", file=out)
    for line in summary.lines():
        print(line, file=out)
    if telemetry is not None:
        print(f"  telemetry          {counted(summary.frames, 'record')} in {telemetry}", file=out)
    if record is not None:
        print(f"  replay             {record} (donify replay {record})", file=out)
    return 0


def run_replay(path: str, telemetry: str | None, out: TextIO | None = None, err: TextIO | None = None,
               plugins=()) -> int:
    """`donify replay`: fly a replay file again headless, print the summary. Exit status 0."""
    out = out or sys.stdout
    if telemetry is not None:
        check_output_path(telemetry, "replay: --telemetry")
    try:
        with _terminate_as_exit():
            summary = fly_replay(path, telemetry=telemetry, progress=err or sys.stderr, plugins=plugins)
    except OSError as exc:
        raise DataFileError([f"{exc.filename or telemetry}: cannot write it: {exc.strerror or exc}"]) from None
    print(f"Donify replay — {path}: {summary.seconds:.2f} s simulated ({counted(summary.frames, 'frame')})", file=out)
    for line in summary.lines():
        print(line, file=out)
    if telemetry is not None:
        print(f"  telemetry          {counted(summary.frames, 'record')} in {telemetry}", file=out)
    return 0


@contextlib.contextmanager
def _terminate_as_exit():
    """While the block runs, SIGTERM (`kill`, a service manager, a CI timeout) raises
    SystemExit(128 + 15) where the flight is, instead of ending the process on the spot: the
    telemetry's temporary file is then removed on the way out, as for Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; an embedding program keeps its own
        return

    def on_term(signum, _frame):
        signal.signal(signum, signal.SIG_IGN)  # a second TERM must not cut the cleaning short
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0.0 or value > 24 * 3600.0:
        raise ValueError(f"fly: --seconds: expected a number of seconds > 0 (at most a day), got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        return check_seed(int(text))
    except ValueError:
        raise ValueError(f"fly: --seed: expected {SEED_EXPECTED}, got {text!r}") from None


# -- `donify bench` ---------------------------------------------------------------------------
_BENCH_SCRIPT = """
level = "street"
[[timeline]]
at = 0.0
rt = 1.0
for = 1.0
[[timeline]]
at = 1.0
hold = "Y"
for = 1.5
[[timeline]]
at = 3.0
left = [0.0, 1.0]
for = 0.2
[[timeline]]
at = 20.0
tap = "LS"
"""


def bench_scripted_flight(seconds: float) -> tuple[float, int]:
    """`donify fly` as the command runs it, a JSON telemetry record per frame to a file:
    wall seconds and sub-steps (1/240 s) for `seconds` of a cruise down the street."""
    import tempfile  # noqa: PLC0415
    import time  # noqa: PLC0415

    from game.script import parse_script  # noqa: PLC0415

    script = parse_script(_BENCH_SCRIPT, "<bench>")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        fly(script, seconds=seconds, telemetry=Path(folder) / "bench.jsonl")
        wall = time.perf_counter() - start
    return wall, round(seconds * 240)
