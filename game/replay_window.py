"""Replays in the window: the glue between `game.window.Game` and game/replay_playback.py —
the recording of the window's flight, F9, the playback keys and status line
(passes/replay_status.py), the ghost (passes/ghost.py), and the course runs' replays.

Every course run finished in the window (`donify play`, not a replay playing back) is kept
in `replays/`: `<level>-<course>-last.replay`, and `<level>-<course>-best.replay` when it
is the best time (the best-times file's judgement). A replay is the flight from the window's
first frame to the finish (the simulation is deterministic from its start only). When a run
starts, the best run of that course is its ghost: flown once headless from the best replay
(then kept in memory), or, for a best made in this session, the poses the window noted as it
flew it (the same ones: the flight is deterministic)."""

from __future__ import annotations

from pathlib import Path

from game.render import hud_text
from game.render.hints import Controls
from game.render.passes.ghost import GhostPass
from game.render.passes.replay_status import ReplayStatusPass
import logging

import numpy as np

from components import events
from components.flight import RigidBody
from engine.datafile import DataFileError
from game.replay import level_hash
from game.replay_playback import (GhostTrack, ReplayPlayback, course_clock, course_replay_path, pose_track,
                                  replayable, save_flight)
from systems.course import CourseState
from world.level import ActiveLevel

log = logging.getLogger("donify.replays")


# -- in the window ------------------------------------------------------------------------------
class WindowReplays:
    """The window's replay features (made by `game.window.Game`): records the flight (unless it
    plays one back), saves it on F9, plays a recording back with its keys and status line,
    keeps the course runs' replays and draws a ghost.

    Args:
        game: the window's Game (its sim, renderer, settings).
        playback: a `ReplayPlayback` to play instead of the devices, or None.
        ghost: a `GhostTrack` to draw (`--ghost`), or None: the best run's, during a run.
        keep_course_replays: write the course runs' replays to the user data folder.
    """

    def __init__(self, game, playback: ReplayPlayback | None = None, ghost: GhostTrack | None = None,
                 keep_course_replays: bool = False) -> None:
        self.game = game
        self.playback = playback
        self.ghost = ghost  # the one drawn now
        self.raced = ghost  # --ghost: raced in every run (the best run's otherwise)
        self.keep_course_replays = keep_course_replays and playback is None
        self.saved: list[Path] = []
        self.best_ghosts: dict[tuple, GhostTrack | None] = {}  # (level sha, course id) → the best run's
        self._run: tuple | None = None  # the run the ghost was chosen for
        self._ticks = 0  # the run's ticks when last seen
        self._noted: list[tuple[float, np.ndarray, np.ndarray]] = []  # this run's poses
        self._finished: events.CourseFinished | None = None
        self._problem_told = False  # the playback's problem is told once
        if playback is None and game.app.frame_count == 0:
            game.sim.record()  # from the first frame: F9 saves the flight so far
        renderer = game.renderer
        passes = list(renderer.passes)
        after = next((i for i, p in enumerate(passes) if p is renderer.props), len(passes) - 1)
        passes.insert(after + 1, GhostPass(renderer.drone, self.ghost_pose))
        menus = next((i for i, p in enumerate(passes) if p is renderer.menus), len(passes))
        passes.insert(menus, ReplayStatusPass(renderer.hud, self.status_lines))
        renderer.passes = tuple(passes)
        game.app.on(events.CourseFinished, self.on_finished)

    # -- per frame -------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """This window frame's flight: the recorded frames of a replay playing back, else one
        frame of the devices' inputs; then the run's bookkeeping."""
        sim = self.game.sim
        if self.playback is not None:
            self.playback.step(sim, dt)
            if self.playback.problem is not None and not self._problem_told:
                self._problem_told = True
                log.warning("%s", self.playback.problem)
                self.game.renderer.hud.message(self.playback.problem)
        else:
            sim.step(dt)
        self._follow_run()
        if self._finished is not None:
            event, self._finished = self._finished, None
            self._keep_run(event)

    def _follow_run(self) -> None:
        state = self.game.app.resource(CourseState)
        run = (state.course_id, state.level_version) if state.course_id and state.status != "idle" else None
        again = run is not None and state.tick < self._ticks  # Retry: a new run of the same course
        self._ticks = state.tick
        if run != self._run or again:
            self._run = run
            self._noted = []
            self.ghost = self.raced if self.raced is not None or run is None else self._best_ghost(state.course_id)
        if run is not None and state.started and state.status in ("running", "finished"):
            t = float(state.time_s)
            if not self._noted or t > self._noted[-1][0]:
                (body,) = self.game.sim.components(RigidBody)
                self._noted.append((t, np.array(body.position, dtype=float), np.array(body.quaternion, dtype=float)))

    def _best_ghost(self, course_id: str) -> GhostTrack | None:
        level = self.game.app.resource(ActiveLevel).level
        if level is None:
            return None
        key = (level_hash(level), course_id)
        if key not in self.best_ghosts:
            self.best_ghosts[key] = None
            path = course_replay_path(level.name, course_id, "best")
            if path.is_file():
                try:  # flown once, headless: the flight is deterministic
                    track = pose_track(path, clock=course_clock(course_id))
                except DataFileError as exc:  # another version of the level, a damaged file: no ghost
                    log.info("no ghost for %s: %s", course_id, exc.lines[0])
                else:
                    if (track.level or {}).get("sha256") == key[0]:
                        self.best_ghosts[key] = track
        return self.best_ghosts[key]

    def on_finished(self, event: events.CourseFinished) -> None:
        self._finished = event  # kept after the frame: the recording then holds the finishing frame

    def _keep_run(self, event: events.CourseFinished) -> None:
        level = self.game.app.resource(ActiveLevel).level
        if level is None or self.playback is not None:
            return
        best = event.time_s <= event.best_s
        if best and self._noted:  # this run is the ghost of the next ones
            t, p, q = (np.array(column) for column in zip(*self._noted))
            self.best_ghosts[(level_hash(level), event.course_id)] = GhostTrack(
                t, p, q, {"name": level.name, "sha256": level_hash(level)}, None, event.course_id)
        if not self.keep_course_replays:
            return
        recording = self.game.sim._recorder.recording if self.game.sim._recorder is not None else None
        if recording is None:
            return
        try:
            if not replayable(recording, level):
                raise ValueError("the level changed during the flight")
            last = course_replay_path(level.name, event.course_id, "last")
            last.parent.mkdir(parents=True, exist_ok=True)
            recording.save(last)
            if best:
                recording.save(course_replay_path(level.name, event.course_id, "best"))
        except (OSError, ValueError) as exc:
            lang = self.game.settings.language
            self.game.renderer.hud.message(hud_text.message("replay_not_saved", lang, getattr(exc, "strerror", None)
                                                            or exc))

    def ghost_time(self) -> float | None:
        """The time the ghost is drawn at: a course ghost, the run's (at the start during the
        countdown; none outside its course's runs); a flight's ghost, the flight's clock."""
        track = self.ghost
        if track is not None and track.course_id is not None:
            state = self.game.app.resource(CourseState)
            if state.course_id != track.course_id or state.status == "idle":
                return None
            return float(state.time_s) if state.started else 0.0
        return self.game.sim.time

    def ghost_pose(self):
        if self.ghost is None:
            return None
        t = self.ghost_time()
        return None if t is None else self.ghost.at(t)

    def status_lines(self) -> tuple[str, str] | None:
        if self.playback is None:
            return None
        lang = self.game.settings.language
        p = self.playback
        line = hud_text.message("replay_status", lang, p.speed, p.played_s, p.duration_s)
        if p.paused:
            line = hud_text.message("replay_paused", lang, line)
        elif p.finished:
            line = hud_text.message("replay_end", lang, line)
        controls = Controls.of(self.game.settings)
        keys = hud_text.message("replay_keys", lang, *(controls.keyboard(a, first_only=True) or "—" for a in
                                                      ("replay_pause", "replay_slower", "replay_faster",
                                                       "replay_restart")))
        return line, keys

    # -- keys ------------------------------------------------------------------------------
    def on_action(self, action: str) -> bool:
        """The replay window actions; False for an action that is not one of them."""
        p = self.playback
        if action == "save_replay":
            self.save()
        elif action in ("replay_pause", "replay_slower", "replay_faster", "replay_restart"):
            if p is None:
                return True  # only while a replay plays
            if action == "replay_pause":
                p.toggle_pause()
            elif action == "replay_slower":
                p.slower()
            elif action == "replay_faster":
                p.faster()
            else:
                p.restart_requested = True
                self.game.quit()  # play_window makes the game again, from the recording's start
        else:
            return False
        return True

    def save(self, folder: Path | None = None) -> Path | None:
        """F9: the flight so far to `replays/`; the HUD says where, or why not."""
        lang = self.game.settings.language
        hud = self.game.renderer.hud
        if self.playback is not None:
            hud.message(hud_text.message("replay_not_saved_playing", lang))
            return None
        try:
            path = save_flight(self.game.sim, folder)
        except ValueError:
            hud.message(hud_text.message("replay_not_saved_level", lang))
            return None
        except OSError as exc:  # a full disk or a read-only folder: say so, keep flying
            hud.message(hud_text.message("replay_not_saved", lang, exc.strerror or exc))
            return None
        self.saved.append(path)
        hud.message(hud_text.message("replay_saved", lang, path))
        return path
