"""Replays for the window, without the window: playing one back (`donify play --replay R`),
saving the flight being flown (F9), the ghost's pose track (`donify play --ghost R`), and
checking those files before any window opens. No pyglet here (game/replay_window.py draws).

**Playback.** The window's Simulation is made exactly as the recorded one was (the header's
`simulation`: level, seed, weather, spawn, vehicle), then each window frame feeds it recorded
frames instead of the devices: the frame's calls (`select`, `reset`…), the pad as it was, and
the recorded frame length — so the flight is the recorded one, bit for bit, whatever the
window's frame rate. At speed ×s a window frame of `dt` seconds plays the recorded frames that
fit in `s·dt` (the remainder carries to the next frame): ×2 plays two recorded frames per
window frame at 60 Hz, ×0.25 one every fourth. Keys (bindable, settings `[controls.keys]`):
P pause, − / = slower / faster (×0.25, ×0.5, ×1, ×2, ×4), Backspace restart (the recorded
flight from its first frame: the window's game is made again). The HUD shows
"REPLAY ×2 12.3 / 60.0 s".

**Saving.** The window records its flight from the first frame (`Simulation.record`); F9
writes it to the user data folder's `replays/` (`DONIFY_DATA_DIR` overrides the folder, as
for mods), atomically. A flight whose level was swapped in place (another level chosen on the
title screen, a hot reload) cannot be flown again from its header: F9 says so instead.

**Ghost.** `pose_track(recording)` flies a replay once, headless (deterministic: no need to
store poses in the file), and keeps the drone's position and attitude at every recorded
frame with the time it was reached; `GhostTrack.at(t)` interpolates between them.
"""

from __future__ import annotations

import bisect
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import platformdirs

from components.flight import RigidBody
from engine.datafile import DataFileError
from game.replay import Recording, apply_frame, check_matches, frames_of, level_hash, load_replay, play_calls
from game.plugins import DATA_DIR_ENV
from game.simulation import Simulation
from systems.course import CourseState
from world.level import ActiveLevel
from world.level_file import load_level

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


def replays_folder() -> Path:
    """The user data folder's `replays/` (`DONIFY_DATA_DIR` overrides the data folder)."""
    base = os.environ.get(DATA_DIR_ENV)
    root = Path(base) if base else Path(platformdirs.user_data_dir("donify", appauthor=False))
    return root / "replays"


def course_replay_path(level_name: str, course_id: str, which: str, folder: Path | None = None) -> Path:
    """Where the window keeps a course's `which` ("last" or "best") run:
    `replays/<level name>-<course id>-<which>.replay` (the name made safe for a file name)."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in f"{level_name}-{course_id}".lower())
    return (replays_folder() if folder is None else folder) / f"{safe}-{which}.replay"


def course_clock(course_id: str):
    """A `pose_track` clock for a course ghost: the run's time while the timer of `course_id`
    runs (and at its finish), None otherwise (the row is not kept)."""
    def clock(sim) -> float | None:
        state = sim.app.resource(CourseState)
        if state.course_id != course_id or not state.started or state.status not in ("running", "finished"):
            return None
        return float(state.time_s)
    clock.course_id = course_id
    return clock


class AutoClock:
    """A `pose_track` clock for `--ghost`: a course run's time while a run is timed, else the
    flight's clock; `course_id` is the course of the last rows kept (None: a free flight)."""

    def __init__(self) -> None:
        self.course_id: str | None = None

    def __call__(self, sim) -> float:
        state = sim.app.resource(CourseState)
        if state.course_id and state.started and state.status in ("running", "finished"):
            if self.course_id != state.course_id:
                self.course_id = state.course_id
            return float(state.time_s)
        if state.status == "countdown":
            return -1.0  # before the run: dropped once it starts (its clock starts from 0 after)
        self.course_id = None
        return sim.time


def simulation_options(recording: Recording) -> dict:
    """The `Simulation` arguments the recorded flight was made with (its level apart)."""
    made = recording.header["simulation"]
    return {"seed": made.get("seed", 0), "density": made.get("density"), "wind": made.get("wind"),
            "position": made.get("position"), "yaw_deg": made.get("yaw_deg"), "vehicle": made.get("vehicle")}


def open_replay(path: str | Path, plugins=()) -> tuple[Recording, object]:
    """Read a replay and make its Simulation, refusing (DataFileError, one line) a damaged file
    or one recorded with another level version, vehicle, Donify version or mods. Returns the
    recording and the checked Simulation (the caller closes it)."""
    recording = load_replay(path)
    made = recording.header["simulation"]
    try:
        sim = Simulation(level=made.get("level"), plugins=plugins, **simulation_options(recording))
    except (ValueError, TypeError, OSError) as exc:
        raise DataFileError([f"{path}:1: simulation: cannot be made again here ({exc})"]) from None
    except DataFileError as exc:  # the level or vehicle file it names
        raise DataFileError([f"{path}:1: simulation: cannot be made again here ({exc.lines[0]})",
                             *exc.lines[1:]]) from None
    try:
        check_matches(path, recording.header, sim.level, sim.vehicle, sim.mods)
    except BaseException:
        sim.close()
        raise
    return recording, sim


class ReplayPlayback:
    """Feeds a recording to a Simulation, frame by frame, at a chosen speed."""

    def __init__(self, recording: Recording, path: str | Path = "") -> None:
        self.recording = recording
        self.path = Path(path) if path else None
        self.frames = list(frames_of(recording))
        self.duration_s = sum(state["dt"] for state, _ in self.frames)
        self.index = 0  # the next recorded frame
        self.played_s = 0.0
        self.speed_index = SPEEDS.index(1.0)
        self.paused = False
        self.restart_requested = False
        self.problem: str | None = None  # why the playback stopped short (a call the file got wrong)
        self._budget_s = 0.0

    def fresh(self) -> "ReplayPlayback":
        """The same recording from its first frame, at the same speed."""
        again = ReplayPlayback(self.recording, self.path or "")
        again.speed_index = self.speed_index
        return again

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.frames)

    def faster(self) -> float:
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
        return self.speed

    def slower(self) -> float:
        self.speed_index = max(0, self.speed_index - 1)
        return self.speed

    def toggle_pause(self) -> bool:
        self.paused = not self.paused
        return self.paused

    def step(self, sim, dt: float) -> int:
        """Play the recorded frames that fit in `speed·dt` seconds; returns how many. A frame
        whose recorded call cannot be made ends the playback there, with `problem` saying why."""
        if self.paused or self.finished:
            return 0
        self._budget_s += dt * self.speed
        played = 0
        while not self.finished and self._budget_s >= self.frames[self.index][0]["dt"] - 1e-12:
            state, calls = self.frames[self.index]
            self._budget_s -= state["dt"]
            try:
                play_calls(sim, calls, f"{self.path or 'the replay'}:{self.index + 2}")  # line 1 is the header
            except DataFileError as exc:  # a hand-edited file: the playback ends there, the game goes on
                self.problem = exc.lines[0]
                self.index = len(self.frames)
                break
            apply_frame(sim, state)
            sim.step(state["dt"])
            self.played_s += state["dt"]
            self.index += 1
            played += 1
        if self.finished:
            self._budget_s = 0.0
        return played



def save_flight(sim, folder: Path | None = None, stem: str = "flight") -> Path:
    """Write the window's flight so far as a replay in `folder` (default `replays_folder()`).
    Raises ValueError when it cannot be flown again (no recorder, the level swapped)."""
    recorder = getattr(sim, "_recorder", None)
    if recorder is None:
        raise ValueError("this flight is not being recorded")
    if not replayable(recorder.recording, sim.app.resource(ActiveLevel).level):
        raise ValueError("the level changed during the flight: it cannot be flown again from the start")
    folder = replays_folder() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.replay"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}-{n}.replay"
    recorder.recording.save(path)
    return path


def replayable(recording: Recording, level) -> bool:
    """Whether the flight recorded so far ends in `level` (the active one) as its replay would:
    the header's level, or the last one loaded in place through `Simulation.apply_level` (a
    hot reload is not an input of the flight: its replay would fly the old level)."""
    sha = (recording.header.get("level") or {}).get("sha256")
    for line in recording.frames:
        for verb, arguments in line.get("calls", ()):
            if verb == "apply_level":
                sha = arguments.get("sha256")
    return sha == level_hash(level)


# -- the ghost's pose track ---------------------------------------------------------------------
@dataclass
class GhostTrack:
    """Where a recorded flight's drone was: `times` (s, increasing), `positions` (n, 3),
    `quaternions` (n, 4, as RigidBody stores them), one row per recorded frame (and one at 0 for the start)."""

    times: np.ndarray
    positions: np.ndarray
    quaternions: np.ndarray
    level: dict | None = None  # the recording's level {"name", "sha256"}
    made_in: str | None = None  # the level name or path the recorded Simulation was made with
    course_id: str | None = None  # a course run's ghost (timed from the run's start), else a flight's

    def at(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """The pose at time `t` (clamped to the track), linearly between rows; the quaternion by
        a normalised blend on the shorter arc."""
        times = self.times
        if t <= times[0]:
            return self.positions[0].copy(), self.quaternions[0].copy()
        if t >= times[-1]:
            return self.positions[-1].copy(), self.quaternions[-1].copy()
        i = bisect.bisect_right(times, t) - 1
        span = times[i + 1] - times[i]
        a = 0.0 if span <= 0.0 else (t - times[i]) / span
        p = self.positions[i] + (self.positions[i + 1] - self.positions[i]) * a
        q0, q1 = self.quaternions[i], self.quaternions[i + 1]
        if float(np.dot(q0, q1)) < 0.0:
            q1 = -q1
        q = q0 + (q1 - q0) * a
        return p, q / np.linalg.norm(q)


def pose_track(replay: Recording | str | Path, plugins=(), clock=None) -> GhostTrack:
    """Fly a replay (a `Recording`, or a file: checked first, DataFileError) headless once and
    keep the pose at every frame. `clock(sim)` gives the time a row is filed under, or None to
    keep none (default the simulation's clock; a course ghost passes `course_clock`, the run's
    time, so it is raced from its own start). When the clock goes back (a Restart, another run)
    the rows start over: the last flight, or run, is the ghost."""
    if isinstance(replay, Recording):
        recording = replay
        sim = Simulation(level=recording.header["simulation"].get("level"), plugins=plugins,
                         **simulation_options(recording))
    else:
        recording, sim = open_replay(replay, plugins)
    clock = clock or (lambda s: s.time)
    try:
        times: list[float] = []
        positions: list[np.ndarray] = []
        quaternions: list[np.ndarray] = []

        def keep() -> None:
            t = clock(sim)
            if t is None:
                return
            if times and t < times[-1]:  # the clock started again (a Restart, a new run): the last run counts
                times.clear(), positions.clear(), quaternions.clear()
            if times and t == times[-1]:
                return
            (body,) = sim.components(RigidBody)
            times.append(float(t))
            positions.append(np.array(body.position, dtype=float))
            quaternions.append(np.array(body.quaternion, dtype=float))

        keep()
        where = "the replay" if isinstance(replay, Recording) else replay
        for line, (state, calls) in enumerate(frames_of(recording), start=2):  # line 1 is the header
            play_calls(sim, calls, f"{where}:{line}")
            apply_frame(sim, state)
            sim.step(state["dt"])
            keep()
    finally:
        sim.close()
    if not times:
        where = "the replay" if isinstance(replay, Recording) else replay
        raise DataFileError([f"{where}: no flight to draw as a ghost in it"])
    return GhostTrack(np.array(times), np.array(positions), np.array(quaternions), recording.header.get("level"),
                      recording.header["simulation"].get("level"), getattr(clock, "course_id", None))


def _level_words(level: dict | None) -> str:
    if not level:
        return "no level (the open world)"
    return f"level {level.get('name')!r} version {str(level.get('sha256'))[:12]}"


# -- opening the window on a replay --------------------------------------------------------------
@dataclass
class WindowStart:
    """What `donify play --replay R / --ghost G` opens the window with (checked beforehand)."""

    level: str | None
    simulation: dict  # the Simulation's other arguments
    playback: ReplayPlayback | None
    ghost: GhostTrack | None


def window_start(level: str | None, replay: str | None = None, ghost: str | None = None,
                 plugins=()) -> WindowStart:
    """Read and check `--replay` and `--ghost` before any window opens: a damaged or mismatched
    file, or a ghost of another level, raises DataFileError (one line)."""
    playback = None
    options: dict = {}
    if replay is not None:
        recording, sim = open_replay(replay, plugins)
        sim.close()
        level = recording.header["simulation"].get("level")
        options = simulation_options(recording)
        playback = ReplayPlayback(recording, replay)
    track = None
    if ghost is not None:
        track = pose_track(ghost, plugins, AutoClock())
        if level is None and replay is None:
            level = track.made_in or "street"
        flown = load_level(level) if level is not None else None
        if (track.level or {}).get("sha256") != level_hash(flown):
            raise DataFileError([f"{ghost}: refused as a ghost: recorded in {_level_words(track.level)}, "
                                 f"flown here in {_level_words(flown and {'name': flown.name, 'sha256': level_hash(flown)})}: "
                                 f"the ghost would fly through another world"])
    return WindowStart(level, options, playback, track)
