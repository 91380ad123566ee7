"""Replays in the window (`donify play --replay R`, F9) and the ghost (`--ghost R`): real frames,
drawn headless, driven by a fake clock.

- played back at ×2, the window's flight reaches the recorded flight's telemetry, bit for bit,
  at the same recorded frames; ×0.25 plays one recorded frame every fourth window frame; pause
  plays none;
- F9 writes the flight so far, which flies again headless to the window's own telemetry;
- a damaged or mismatched file is one line and exit 1, and no window opens;
- the ghost is drawn where its track is, translucent: its pixels are the blend of the opaque
  ghost and the scene behind at the ghost's alpha.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from game import cli
from game.fly import fly_replay
from game.replay import load_replay
from game.settings import Settings
from game.simulation import Simulation

FRAME_S = 1.0 / 60.0


def record_flight(path, frames: int = 150) -> list[str]:
    """A street flight with a take-off, sticks and a yaw; its replay at `path`; the telemetry
    of each frame as the JSON line `donify fly` writes."""
    rows = []
    with Simulation("street", seed=3) as sim:
        sim.record()
        for i in range(frames):
            pad = sim.pad
            if i == 5:
                pad.press("X")  # take-off
            if i == 6:
                pad.release("X")
            if i == 90:
                pad.left, pad.right = (0.4, 0.8), (0.5, 0.0)
            sim.step(FRAME_S)
            rows.append(json.dumps(sim.telemetry().as_dict(), allow_nan=False, separators=(",", ":")))
        sim._recorder.recording.save(path)
    return rows


@pytest.fixture
def window():
    """window(level, **Game kwargs): a hidden 480×270 Game, default settings, no sound."""
    from game.window import Game  # noqa: PLC0415

    games = []

    def make(level="street", **kwargs):
        settings = Settings()
        settings.input.backend = "none"
        game = Game(level, settings=settings, width=480, height=270, visible=False, audio=False, **kwargs)
        games.append(game)
        return game

    yield make
    for game in games:
        game.close()


def replay_game(window, path):
    from game.replay_playback import window_start  # noqa: PLC0415

    start = window_start(None, replay=str(path))
    return window(start.level, simulation=start.simulation, playback=start.playback)


def telemetry_line(game) -> str:
    return json.dumps(game.sim.telemetry().as_dict(), allow_nan=False, separators=(",", ":"))


def test_playback_at_x2_reaches_the_recorded_telemetry_at_the_same_frames(window, tmp_path, save_shot):
    rows = record_flight(tmp_path / "r.replay")
    game = replay_game(window, tmp_path / "r.replay")
    playback = game.replays.playback
    playback.faster()
    assert playback.speed == 2.0
    seen = 0
    while not playback.finished:
        before = playback.index
        game.frame(FRAME_S)
        # ×2: a 1/60 s window frame holds two recorded 1/60 s frames (the last may be alone)
        assert playback.index - before == min(2, len(rows) - before)
        assert telemetry_line(game) == rows[playback.index - 1]
        seen += 1
    assert seen == math.ceil(len(rows) / 2)
    assert game.sim.telemetry().position[2] > 0.5  # it flew: the take-off happened in the window too
    status = game.replays.status_lines()[0]
    assert status.startswith("REPLAY ×2") and status.endswith("END")
    save_shot(game.pixels(), "replay_window_end")


def test_slow_playback_pause_and_restart(window, tmp_path):
    rows = record_flight(tmp_path / "r.replay", frames=40)
    game = replay_game(window, tmp_path / "r.replay")
    playback = game.replays.playback
    playback.slower()
    playback.slower()
    assert playback.speed == 0.25
    for _ in range(8):  # 8 window frames × 0.25 = 2 recorded frames of 1/60 s
        game.frame(FRAME_S)
    assert playback.index == 2 and telemetry_line(game) == rows[1]
    game.on_action("replay_pause")
    for _ in range(10):
        game.frame(FRAME_S)
    assert playback.index == 2 and "PAUSED" in game.replays.status_lines()[0]
    game.on_action("replay_pause")
    game.on_action("replay_restart")  # the window closes; `play` makes the game again from frame 0
    assert playback.restart_requested and not game.running
    again = playback.fresh()
    assert again.index == 0 and again.speed == 0.25


def test_f9_saves_the_flight_which_flies_again_to_the_same_telemetry(window, tmp_path, monkeypatch):
    monkeypatch.setenv("DONIFY_DATA_DIR", str(tmp_path / "data"))
    game = window("street")
    pad = game.sim.pad
    for i in range(60):
        if i == 3:
            pad.press("X")
        if i == 4:
            pad.release("X")
        game.frame(FRAME_S if i % 3 else 1.0 / 45.0)  # uneven frames, as a real window has
    game.on_action("save_replay")
    (path,) = game.replays.saved
    assert path.parent == tmp_path / "data" / "replays" and path.suffix == ".replay"
    assert len(load_replay(path).frames) == 60
    assert any(str(path) in text for text, *_ in game.renderer.hud.messages)
    telemetry = tmp_path / "again.jsonl"
    fly_replay(path, telemetry=telemetry)
    assert telemetry.read_text().splitlines()[-1] == telemetry_line(game)


def test_a_damaged_or_mismatched_replay_is_one_line_and_no_window(tmp_path, capsys, monkeypatch):
    import game.window as window_module  # noqa: PLC0415

    def no_window(*args, **kwargs):
        raise AssertionError("a window was opened")

    monkeypatch.setattr(window_module, "Game", no_window)
    monkeypatch.setattr(cli, "display_problem", lambda: None)  # as with a display: the window path
    good = tmp_path / "r.replay"
    record_flight(good, frames=10)
    cut = tmp_path / "cut.replay"
    lines = gzip.open(good, "rt").read().splitlines()
    with gzip.open(cut, "wt") as f:
        f.write("\n".join(lines[:-3]) + "\n")
    assert cli.main(["play", "--replay", str(cut)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{cut}: expected 10 frames")
    other = tmp_path / "other.replay"
    header = json.loads(lines[0])
    header["level"]["sha256"] = "0" * 64
    with gzip.open(other, "wt") as f:
        f.write("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert cli.main(["play", "--replay", str(other)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refused: the level differs" in err[0]
    assert cli.main(["play", "--ghost", str(other), "--level", "street"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(other) in err[0]
    lab = tmp_path / "lab.replay"
    with Simulation(None) as sim:
        sim.record()
        sim.step(FRAME_S)
        sim._recorder.recording.save(lab)
    assert cli.main(["play", "--ghost", str(lab), "--level", "street"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refused as a ghost" in err[0] and "'The street'" in err[0]
    monkeypatch.setattr(cli, "display_problem", lambda: "no display found")  # headless: refused the same
    assert cli.main(["play", "--ghost", str(lab), "--level", "street"]) == 1
    assert "refused as a ghost" in capsys.readouterr().err


def test_a_call_the_file_got_wrong_ends_the_playback_there_and_the_game_goes_on(window, tmp_path, caplog):
    """A hand-edited replay passes every check before the window opens but asks, at frame 20,
    for a drone inside a building: the playback stops there, says so once (log and HUD), and
    the window keeps running."""
    path = tmp_path / "edited.replay"
    rows = record_flight(path, frames=40)
    header, *frames = gzip.decompress(path.read_bytes()).decode().splitlines()
    line = json.loads(frames[20])
    line["calls"] = [["add_drone", {"position": [9.0, 14.0, 4.0], "yaw_deg": 0.0}]]  # inside 'north-1'
    frames[20] = json.dumps(line)
    path.write_bytes(gzip.compress(("\n".join([header, *frames]) + "\n").encode()))
    game = replay_game(window, path)
    playback = game.replays.playback
    expected = f"{path}:22: calls.0: add_drone: position: expected a place clear of the level's solids"
    with caplog.at_level("WARNING", logger="donify.replays"):
        for _ in range(60):
            game.frame(FRAME_S)
    assert playback.finished and playback.index == len(rows)
    assert telemetry_line(game) == rows[19]  # the last frame played is the one before
    assert playback.problem.startswith(expected)
    assert [r.getMessage() for r in caplog.records if r.name == "donify.replays"] == [playback.problem]
    assert [m[0] for m in game.renderer.hud.messages].count(playback.problem) == 1
    assert game.running and len(game.sim.drones) == 1 + len(game.sim.level.traffic)


def test_the_pose_track_is_where_the_recorded_drone_was(tmp_path):
    from game.replay_playback import pose_track  # noqa: PLC0415

    rows = [json.loads(r) for r in record_flight(tmp_path / "r.replay", frames=60)]
    track = pose_track(tmp_path / "r.replay")
    assert len(track.times) == 61
    for k, row in enumerate(rows, start=1):
        assert track.times[k] == row["time"]
        assert tuple(track.positions[k]) == tuple(row["position"])
        assert tuple(track.quaternions[k]) == tuple(row["quaternion"])
    # halfway between two rows: the mean of the positions
    t = 0.5 * (track.times[30] + track.times[31])
    p, q = track.at(t)
    assert np.allclose(p, 0.5 * (track.positions[30] + track.positions[31]), atol=1e-12)
    assert math.isclose(float(np.linalg.norm(q)), 1.0, rel_tol=1e-12)


def test_the_ghost_is_drawn_translucent_where_its_track_is(window, tmp_path, save_shot, monkeypatch):
    import game.render.passes.ghost as ghost_module  # noqa: PLC0415
    from game.replay_playback import GhostTrack  # noqa: PLC0415

    game = window("street")
    game.renderer.frame.show_drone = False
    game.frame(FRAME_S)
    body = game.sim.telemetry()
    # the ghost 0.8 m ahead of the drone and 0.15 m up, level: a track that stays there
    yaw = math.radians(body.yaw_deg)
    place = np.array(body.position) + 0.8 * np.array([math.cos(yaw), math.sin(yaw), 0.0]) + [0.0, 0.0, 0.15]
    track = GhostTrack(np.array([0.0, 1e6]), np.array([place, place]), np.array([body.quaternion] * 2))
    game.frame(FRAME_S)
    without = game.pixels().astype(float)
    game.replays.ghost = track
    game.frame(FRAME_S)
    translucent = game.pixels().astype(float)
    save_shot(translucent.astype(np.uint8), "ghost_translucent")
    alpha = ghost_module.GHOST_TINT[3]
    monkeypatch.setattr(ghost_module, "GHOST_TINT", (*ghost_module.GHOST_TINT[:3], 1.0))
    game.frame(FRAME_S)
    opaque = game.pixels().astype(float)

    col, row = game.renderer.project(place)
    changed = np.abs(opaque - without).sum(axis=2) > 30.0
    assert changed[int(row) - 6:int(row) + 7, int(col) - 6:int(col) + 7].any()  # drawn where the track is
    far = changed.copy()
    far[int(row) - 60:int(row) + 61, int(col) - 80:int(col) + 81] = False
    assert not far.any()  # and nowhere else
    # translucent: over the scene, the opaque ghost's colour at `alpha` (±3 levels of rounding)
    expected = alpha * opaque[changed][:, :3] + (1.0 - alpha) * without[changed][:, :3]
    assert np.abs(translucent[changed][:, :3] - expected).max() <= 3.0


def test_a_course_runs_replay_is_a_ghost_timed_from_the_runs_start(tmp_path, capsys):
    from game.replay_playback import AutoClock, pose_track  # noqa: PLC0415

    rec, tel = tmp_path / "run.replay", tmp_path / "run.jsonl"
    script = Path(__file__).resolve().parents[2] / "examples" / "street_course.toml"
    assert cli.main(["fly", "--script", str(script), "--record", str(rec), "--telemetry", str(tel)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in tel.read_text().splitlines()]
    assert rows[-1]["course"]["status"] == "finished"
    track = pose_track(rec, clock=AutoClock())
    assert track.course_id == "street-run"
    assert track.times[-1] == rows[-1]["course"]["time_s"]  # the run's time at its finish
    # the timed rows: running, then the finishing one (after it the time stays, the ghost too)
    finish = next(i for i, r in enumerate(rows) if r["course"]["status"] == "finished")
    timed = [r for r in rows[:finish + 1] if r["course"]["status"] in ("running", "finished")
             and r["course"]["time_s"] > 0.0]
    assert len(timed) > 100
    for row in [*timed[::25], timed[-1]]:  # at a row's run time, the ghost is where that row's drone was
        p, _ = track.at(row["course"]["time_s"])
        assert tuple(p) == tuple(row["position"])


def test_play_makes_the_game_again_for_a_replay_restart(tmp_path, monkeypatch):
    import game.window as window_module  # noqa: PLC0415

    record_flight(tmp_path / "r.replay", frames=10)
    made = []

    class FakeGame:  # the window's Game as `play` drives it: made, warmed up, run until closed
        def __init__(self, level, **kwargs):
            made.append((level, kwargs))
            self.playback = kwargs["playback"]

        def warm_up(self):
            return True

        def run(self):
            if len(made) == 1:  # the first window: ×2, then Backspace
                self.playback.faster()
                self.playback.index = 7
                self.playback.restart_requested = True
            return 0

    monkeypatch.setattr(window_module, "Game", FakeGame)
    assert window_module.play("street", replay=str(tmp_path / "r.replay")) == 0
    assert len(made) == 2
    (level, first), (_, second) = made
    assert level == "street" and first["simulation"]["seed"] == 3 and not first["title"]
    assert second["playback"] is not first["playback"]
    assert second["playback"].index == 0 and second["playback"].speed == 2.0


def test_the_replay_status_line_is_in_french(tmp_path):
    from game.replay_playback import window_start  # noqa: PLC0415
    from game.window import Game  # noqa: PLC0415
    from tests.render.test_french import drawn_strings, french_vocabulary, level_texts, untranslated  # noqa: PLC0415

    record_flight(tmp_path / "r.replay", frames=20)
    start = window_start(None, replay=str(tmp_path / "r.replay"))
    settings = Settings()
    settings.input.backend = "none"
    settings.set("language", "fr")
    game = Game(start.level, settings=settings, width=640, height=360, visible=False, audio=False,
                simulation=start.simulation, playback=start.playback)
    try:
        game.frame(FRAME_S)
        game.on_action("replay_pause")
        game.frame(FRAME_S)
        status, keys = game.replays.status_lines()
        assert status.startswith("REPLAY ×1") and status.endswith("EN PAUSE")
        assert keys == "P pause   − / = vitesse   Backspace depuis le début"
        shown = drawn_strings(game)
        assert status in shown and keys in shown
        assert not untranslated([status, keys], french_vocabulary(), level_texts())
    finally:
        game.close()
