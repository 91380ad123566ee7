"""Courses in the window, real frames drawn headless: the gates (the next one highlighted),
the course HUD's arrow pointing at the next gate, the results screen and its Retry / Back
(keyboard, mouse), the course runs' replays and the best run's ghost, the title screen's
COURSES rows."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from game.fly import fly_replay
from game.render import hud_text as T
from game.render.passes.gates import AHEAD, NEXT
from game.settings import Settings
from systems.course import CourseState
from world.level_file import load_level

FRAME_S = 1.0 / 60.0
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(tmp_path, monkeypatch):
    """window(level, **Game kwargs): a hidden 640×360 Game with the user data folder in tmp."""
    from game.window import Game  # noqa: PLC0415

    monkeypatch.setenv("DONIFY_DATA_DIR", str(tmp_path / "data"))
    games = []

    def make(level="street", language="en", **kwargs):
        settings = Settings()
        settings.input.backend = "none"
        settings.set("language", language)
        game = Game(level, settings=settings, width=640, height=360, visible=False, audio=False, **kwargs)
        games.append(game)
        return game

    yield make
    for game in games:
        game.close()


def street_with(folder, *gates: dict, finish: str = "gate", par_s: float = 10.0) -> str:
    """The street's file with one more course, "test" ("Test run"): from the start pad through
    `gates` (keyword dicts of a gate); written in `folder`, its path returned."""
    text = (ROOT / "levels" / "street" / "level.toml").read_text(encoding="utf-8")
    text += f'\n[[courses]]\nid = "test"\nname = "Test run"\npar_s = {par_s}\nstart = "pad:start"\nfinish = "{finish}"\n'
    for gate in gates:
        text += "\n[[courses.gates]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in gate.items())
    path = folder / "level.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _toml(value) -> str:
    return f"[{', '.join(str(float(v)) for v in value)}]" if isinstance(value, tuple) else str(float(value))


def frames(game, n: int, draw_last: bool = True) -> None:
    for i in range(n):
        game.step(FRAME_S)
    if draw_last:
        game.frame(FRAME_S)


def colour_near(pixels, col: float, row: float, radius: int = 3) -> np.ndarray:
    """The pixels of a small square around (col, row), (n, 3) floats."""
    r, c = int(round(row)), int(round(col))
    return pixels[r - radius:r + radius + 1, c - radius:c + radius + 1, :3].reshape(-1, 3).astype(float)


def is_like(colours: np.ndarray, rgba, tolerance: float = 40.0) -> bool:
    """Some pixel within `tolerance` (per channel) of the colour (unlit: what the shader writes)."""
    target = np.array(rgba[:3]) * 255.0
    return bool((np.abs(colours - target).max(axis=1) <= tolerance).any())


def test_the_gates_are_drawn_and_the_next_one_highlighted(window, save_shot):
    game = window("street")
    game.renderer.frame.show_hud = False  # the course HUD's arrow is the highlight's colour too
    game.sim.select("course:street-run")
    frames(game, 10)
    save_shot(game.pixels(), "course_gates")
    state = game.app.resource(CourseState)
    assert state.status == "countdown" and state.gate == 0
    pixels = game.pixels()
    gates = state.course.gates
    # gate 0 (next) and gate 2 (to come): both rectangles; the middle of their lower bars
    for index, tint in ((0, NEXT), (2, AHEAD)):
        gate = gates[index]
        bottom = np.array(gate.centre) - 0.5 * gate.height_m * np.array(gate.up)
        col, row = game.renderer.project(bottom)
        assert 0 <= col < pixels.shape[1] and 0 <= row < pixels.shape[0]
        near = colour_near(pixels, col, row)
        if tint is NEXT:
            assert is_like(near, NEXT), (index, near)  # unlit: the highlight's own colour
        else:  # lit: orange (red over green over blue)
            assert any(r > g + 30 > b + 30 for r, g, b in near), (index, near)
    # passing gate 0 moves the highlight on: gate 0 grey, gate 1 green
    state.gate = 1
    game.frame(FRAME_S)
    assert game.courses.gates.next_gate == gates[1]
    gate = gates[0]
    col, row = game.renderer.project(np.array(gate.centre) - 0.5 * gate.height_m * np.array(gate.up))
    near = colour_near(game.pixels(), col, row)
    assert not is_like(near, NEXT) and any(abs(r - g) < 20 and abs(g - b) < 20 for r, g, b in near)


def _arrow_tip(game, pass_) -> tuple[float, float]:
    """The direction (x right, y up) from the arrow's centre to its farthest arrow-coloured pixel."""
    pixels = game.pixels()
    height = pixels.shape[0]
    x0, y0 = pass_.arrow_at
    reach = 40
    best, tip = -1.0, None
    for row in range(int(height - y0) - reach, int(height - y0) + reach):
        for col in range(int(x0) - reach, int(x0) + reach):
            if is_like(pixels[row, col, :3].astype(float)[None, :], NEXT, 25.0):
                dx, dy = col + 0.5 - x0, (height - row - 0.5) - y0
                if math.hypot(dx, dy) > best:
                    best, tip = math.hypot(dx, dy), (dx, dy)
    assert tip is not None, "no arrow drawn"
    n = math.hypot(*tip)
    return tip[0] / n, tip[1] / n


@pytest.mark.parametrize("where", ["left", "behind"])
def test_the_hud_arrow_points_at_the_next_gate(window, save_shot, where, tmp_path):
    gate = {"left": dict(position=(6.0, 5.0, 3.0), heading_deg=90.0, size=(2.0, 2.0)),
            "behind": dict(position=(-12.0, 0.0, 2.0), heading_deg=180.0, radius=1.5)}[where]
    game = window(street_with(tmp_path, gate))
    game.sim.select("course:test")
    frames(game, 10)
    save_shot(game.pixels(), f"course_arrow_{where}")
    hud = game.courses.hud
    assert hud.arrow_direction is not None
    # the gate's centre as the camera projects it, from the window's centre (x right, y up)
    view = game.renderer.frame.view
    clip = view.view_projection @ np.array([*gate["position"], 1.0])
    w, h = game.renderer.width, game.renderer.height
    expect = np.array([clip[0], clip[1]]) / abs(clip[3]) * np.array([w / 2.0, h / 2.0])
    expect /= np.linalg.norm(expect)
    if where == "left":  # in front: the projected point itself is up and to the left
        col, row = game.renderer.project(gate["position"])
        on_screen = np.array([col - w / 2.0, h / 2.0 - row])
        assert np.allclose(on_screen / np.linalg.norm(on_screen), expect, atol=1e-6)
        assert expect[0] < 0.0
    else:  # behind the camera: the arrow points down, the way to turn
        assert expect[1] < -0.9
    assert np.dot(hud.arrow_direction, expect) > math.cos(math.radians(1.0))
    drawn = _arrow_tip(game, hud)
    assert np.dot(drawn, expect) > math.cos(math.radians(12.0)), (drawn, expect)


def fly_through_test_course(game, limit_s: float = 20.0) -> None:
    """Take off (X) during the countdown, then forward at full stick until the results open."""
    pad = game.sim.pad
    pad.press("X")
    game.step(FRAME_S)
    pad.release("X")
    t = 0.0
    while not game.courses.open and t < limit_s:
        state = game.app.resource(CourseState)
        if state.status == "running" and game.sim.telemetry().position[2] > 1.2:
            pad.left = (0.0, 1.0)
        game.step(FRAME_S)
        t += FRAME_S
    pad.left = (0.0, 0.0)
    assert game.courses.open, game.sim.telemetry().course


RING = dict(position=(6.0, 0.0, 1.6), heading_deg=0.0, radius=1.4)


def test_the_results_screen_then_retry_and_back(window, save_shot, tmp_path):
    level = street_with(tmp_path, RING, par_s=30.0)
    game = window(level, user_data=True)
    game.sim.select("course:test")
    fly_through_test_course(game)
    game.frame(FRAME_S)
    save_shot(game.pixels(), "course_results")
    results = game.courses.screen.results
    telemetry = game.sim.telemetry().course
    assert telemetry.status == "finished" and results.time_s == telemetry.time_s == telemetry.splits[-1]
    assert results.medal == ("gold" if results.time_s <= 30.0 else "silver")
    view = game.courses.view
    texts = {spec[1] for layer in (view.big, view.text, view.small) for spec, _ in layer.items.values()
             if spec[0] == "t"}
    assert T.race_time(results.time_s) in texts
    assert {"COURSE FINISHED", "Test run", "Gold medal", "Retry", "Back to the title screen", "New best!"} <= texts
    # the panel is drawn: the time's pixels differ from the same frame without the screen
    with_screen = game.pixels().astype(float)
    game.courses.screen.open = False
    game.frame(FRAME_S)
    assert np.abs(with_screen - game.pixels().astype(float)).sum(axis=2).max() > 100
    game.courses.screen.open = True
    # the run's replays are kept, the best one too (a first run is the best)
    data = tmp_path / "data" / "replays"
    assert (data / "the-street-test-last.replay").is_file() and (data / "the-street-test-best.replay").is_file()
    # keyboard: Enter / A on the first row, Retry: the same course counts down again
    game.frame(FRAME_S)
    game.sim.pad.press("A")
    game.step(FRAME_S)
    game.sim.pad.release("A")
    assert not game.courses.open and game.app.resource(CourseState).status == "countdown"
    # a second run: the first is its ghost, drawn at the run's time from the replay's poses
    fly_through_test_course(game)
    assert game.replays.ghost is not None and game.replays.ghost.course_id == "test"
    # mouse: a click on Back opens the title screen, the run ended
    game.frame(FRAME_S)
    x, y, w, h = game.courses.view.row_rects[1]
    game.courses.on_mouse_press(x + w / 2, y + h / 2, 1, 0)  # pyglet.window.mouse.LEFT == 1
    assert game.title.open and game.app.resource(CourseState).status == "idle"


def test_the_best_runs_ghost_is_flown_from_its_replay_when_a_run_starts(window, tmp_path):
    level = street_with(tmp_path, RING, par_s=30.0)
    first = window(level, user_data=True)
    first.sim.select("course:test")
    fly_through_test_course(first)
    noted = first.replays.best_ghosts  # the poses the window noted as it flew the run
    (track,) = noted.values()
    # a new session: the ghost comes from the best replay, flown headless once
    second = window(level, user_data=True)
    second.sim.select("course:test")
    second.step(FRAME_S)
    ghost = second.replays.ghost
    assert ghost is not None and ghost is not track
    assert np.array_equal(ghost.times, track.times) and np.array_equal(ghost.positions, track.positions)
    assert second.replays.ghost_time() == 0.0  # the countdown: the ghost waits at the start
    assert np.array_equal(second.replays.ghost_pose()[0], track.positions[0])


def test_the_title_screen_lists_the_courses_and_starts_one(window, tmp_path):
    game = window("street", title=True)
    rows = game.title.screen.rows
    courses = [r for r in rows if r.kind == "course"]
    shipped = [(name, c.id) for name in ("field", "street") for c in load_level(name).courses]
    assert sorted((r.level_name, r.course_id) for r in courses) == sorted(shipped) and courses
    row = next(r for r in courses if r.level_name == "field")
    game.title.screen.index = rows.index(row)
    game.title.screen.activate()
    frames(game, 2)  # the field's first tick lists its courses in the menu: the course starts
    state = game.app.resource(CourseState)
    assert not game.title.open and state.course_id == row.course_id and state.status == "countdown"
    assert game.sim.level.name == load_level("field").name
    # the level was loaded in place, as a recorded input: F9's replay flies it again exactly
    frames(game, 30)
    game.on_action("save_replay")
    (path,) = game.replays.saved
    again = tmp_path / "again.jsonl"
    fly_replay(path, telemetry=again)
    last = json.loads(again.read_text().splitlines()[-1])
    assert last == json.loads(json.dumps(game.sim.telemetry().as_dict()))
    assert last["course"]["course_id"] == row.course_id


def test_the_hud_shows_the_split_its_delta_and_a_missed_gate(window):
    from components import events  # noqa: PLC0415
    from game.render.hud import GOOD, WARN  # noqa: PLC0415

    game = window("street")
    game.sim.select("course:street-run")
    frames(game, 2)
    state = game.app.resource(CourseState)
    state.started, state.status, state.gate = True, "running", 2
    state.splits, state.best = (4.25, 9.5), (4.0, 9.75, 14.0)
    game.app.emit(events.GateMissed("street-run", 2))
    game.frame(FRAME_S)
    lines = {key: spec for key, (spec, _) in game.courses.hud.lines.items.items()}
    assert lines["gate"][1] == "GATE 3 / 5"
    # the last split (gate 2, 9.50 s) against the best run's (9.75 s): 0.25 s ahead, green
    assert lines["split"][1] == "Gate 2   0:09.50   −0.25" and lines["split"][4] == GOOD
    assert lines["missed"][1] == "Gate 3 missed: fly back through it" and lines["missed"][4] == WARN
    state.splits = (4.25, 9.5, 14.5)  # behind at gate 3: red
    game.frame(FRAME_S)
    split = game.courses.hud.lines.items["split"][0]
    assert split[1] == "Gate 3   0:14.50   +0.50" and split[4] == WARN
    for _ in range(200):  # the miss is announced for 3 s
        game.step(FRAME_S)
    game.frame(FRAME_S)
    assert "missed" not in game.courses.hud.lines.items


def test_the_results_screen_reads_the_pad():
    from components.pilot import Pad  # noqa: PLC0415
    from game.course_flow import ResultsScreen, Results  # noqa: PLC0415

    screen = ResultsScreen()
    screen.show(Results("c", "C", 10.0, 10.0, "gold", 10.0, (10.0,), None, True))
    pad = Pad()
    screen.read_pad(pad, [])  # the stick at rest: navigation armed
    pad.left = (0.0, -1.0)  # down (left stick, arrows, D-pad): Back
    screen.read_pad(pad, [])
    screen.read_pad(pad, [])  # held: one step only
    assert screen.index == 1
    pad.left = (0.0, 0.0)
    screen.read_pad(pad, ["A"])
    assert screen.chosen == ["back"]
    screen.chosen.clear()
    screen.read_pad(pad, ["B"])  # B / Esc: Back too
    assert screen.chosen == ["back"]


def test_messages_keep_clear_of_the_course_hud(window):
    """Messages and the course HUD share the top centre: the messages go below the timer, the
    gate line, the split and the arrow."""
    from components import events  # noqa: PLC0415

    game = window("street")
    game.sim.select("course:street-run")
    frames(game, 2)
    state = game.app.resource(CourseState)
    state.started, state.status, state.gate, state.splits = True, "running", 1, (4.25,)
    for text in ("Weather: drizzle", "Air: hot day", "a third line"):
        game.app.emit(events.Message(text))
    frames(game, 3)
    occupied = game.courses.hud.occupied_rects()
    assert occupied and game.renderer.hud.message_rects
    for mx, my, mw, mh in game.renderer.hud.message_rects:
        for x, y, w, h in occupied:
            assert not (mx < x + w and x < mx + mw and my < y + h and y < my + mh), "a message over the course HUD"
