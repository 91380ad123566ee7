"""Courses flown: the shipped courses finished by their scripts, the run's rules (countdown,
start, missed gates flown back to, Restart), best times kept in their file, and random
flights that never break the run's bookkeeping."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import events
from components.flight import RigidBody
from game import cli
from game.best_times import BestTimes
from game.simulation import Simulation
from systems.course import COUNTDOWN_S, CourseState
from world.level_file import load_level

ROOT = Path(__file__).resolve().parents[2]
FRAME_S = 1.0 / 60.0
COURSE_LINE = re.compile(r"course\s+(\w+), time ([0-9.]+) s, gates (\d+)/(\d+) \(([\w-]+)\)")


class Log:
    """Every course event, in order (a long-lived handler object: esper keeps weak references)."""

    def __init__(self, sim: Simulation) -> None:
        self.events: list = []
        for kind in (events.CourseStarted, events.GatePassed, events.GateMissed, events.CourseFinished):
            sim.app.on(kind, self.add)

    def add(self, event) -> None:
        self.events.append(event)

    def of(self, kind) -> list:
        return [e for e in self.events if isinstance(e, kind)]


def move(sim: Simulation, position) -> None:
    """Put the drone at `position` (m), still, and run one frame: the course sees the jump as
    the segment of one tick (the segment is exact at any length)."""
    body = sim.components(RigidBody)[0]
    body.position[:] = position
    body.velocity[:] = (0.0, 0.0, 0.0)
    sim.step()


def state(sim: Simulation) -> CourseState:
    return sim.app.resource(CourseState)


def counted_down(sim: Simulation, course: str) -> None:
    sim.select(f"course:{course}")
    assert state(sim).status == "countdown" and state(sim).time_s == pytest.approx(-COUNTDOWN_S)
    sim.run(COUNTDOWN_S + 0.05)
    assert state(sim).status == "running" and not state(sim).started  # still on the start pad


# -- the shipped courses ------------------------------------------------------------------------
@pytest.mark.parametrize("example, level", [("street_course", "street"), ("field_course", "field")])
def test_each_shipped_course_is_finished_by_its_script(example, level, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    code = cli.main(["fly", "--script", str(ROOT / "examples" / f"{example}.toml"), "--telemetry", str(out)])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    match = COURSE_LINE.search(stdout)
    assert match is not None, stdout
    status, time_s, gate, gates, course_id = match.groups()
    course = next(c for c in load_level(level).courses if c.id == course_id)
    assert status == "finished" and gate == gates == str(len(course.gates) * course.laps)
    assert float(time_s) < 1.5 * course.par_s  # at least a bronze medal
    # the README of the level gives the par
    readme = (ROOT / "levels" / level / "README.md").read_text(encoding="utf-8")
    assert f"{course.par_s:g} s" in readme and course_id in readme
    # the telemetry agrees: splits increasing, one per gate, the last no later than the time
    last = json.loads(out.read_text(encoding="utf-8").splitlines()[-1])["course"]
    assert last["status"] == "finished" and len(last["splits"]) == int(gates)
    assert last["splits"] == sorted(last["splits"]) and last["splits"][-1] <= last["time_s"]
    assert last["time_s"] == pytest.approx(float(time_s), abs=0.005)


def test_a_course_of_another_level_is_skipped_with_a_warning(tmp_path, capsys):
    code = cli.main(["fly", "--script", str(ROOT / "examples" / "field_course.toml"), "--level", "street",
                     "--seconds", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and "'course:field-hoops' is not offered" in err and "skipped" in err
    assert COURSE_LINE.search(out) is None


# -- the run's rules ------------------------------------------------------------------------------
def test_the_countdown_then_the_timer_from_leaving_the_start_pad():
    with Simulation("street") as sim:
        log = Log(sim)
        sim.run(2.0)
        sim.select("course:street-run")
        start = sim.level.spawn
        position = tuple(float(v) for v in sim.components(RigidBody)[0].position)
        assert position[:2] == (start.position[0], start.position[1])  # back on the start pad, stopped
        sim.run(1.0)
        record = sim.telemetry().course
        assert record.status == "countdown" and record.time_s == pytest.approx(-(COUNTDOWN_S - 1.0), abs=1e-9)
        assert record.gates == 5 and record.course_id == "street-run"
        sim.run(2.5)  # over, but the drone has not left the pad: the timer waits
        assert sim.telemetry().course.status == "running" and sim.telemetry().course.time_s == 0.0
        assert log.of(events.CourseStarted) == []
        move(sim, (2.0, 0.0, 3.0))
        assert log.of(events.CourseStarted) == [events.CourseStarted("street-run")]
        sim.run(1.0)  # the timer started at the end of the move's first tick: 3 ticks, then 1 s
        assert sim.telemetry().course.time_s == pytest.approx(1.0 + 3 / 240, abs=1e-9)


def test_a_missed_gate_must_be_flown_back_to():
    with Simulation("street") as sim:
        log = Log(sim)
        counted_down(sim, "street-run")
        move(sim, (10.0, 2.5, 3.0))  # off the pad: the timer starts
        move(sim, (30.0, 2.5, 3.0))  # past gate 0 (x = 20, 4 m wide: |y| ≤ 2), 0.5 m beside it
        assert log.of(events.GateMissed) == [events.GateMissed("street-run", 0)]
        move(sim, (60.0, 0.0, 3.0))  # through gate 1 (x = 50) before gate 0: a miss of gate 0 again
        assert log.of(events.GateMissed)[-1] == events.GateMissed("street-run", 0)
        assert state(sim).gate == 0 and state(sim).splits == () and log.of(events.GatePassed) == []
        move(sim, (15.0, 0.0, 3.0))  # back the way it came: through both gates backwards, nothing counts
        assert state(sim).gate == 0 and len(log.of(events.GateMissed)) == 2
        move(sim, (25.0, 0.0, 3.0))  # gate 0 at last
        move(sim, (55.0, 0.0, 3.0))  # then gate 1
        assert [e.index for e in log.of(events.GatePassed)] == [0, 1] and state(sim).gate == 2


def test_passing_every_gate_finishes_with_splits_at_the_crossings():
    with Simulation("street") as sim:
        log = Log(sim)
        counted_down(sim, "street-run")
        xs = [g.position[0] for g in sim.level.courses[0].gates]
        move(sim, (xs[0] - 5.0, 0.0, 3.0))
        t0 = sim.time  # the timer started at the end of that frame's first tick
        for x in xs:
            move(sim, (x + 5.0, 0.0, 3.0))  # the jump is the first tick of the frame: crossed mid-tick
        passed = log.of(events.GatePassed)
        assert [e.index for e in passed] == list(range(5)) and all(e.delta_s is None for e in passed)
        # the timer started at the end of the first tick of the frame that left the pad; each
        # gate is crossed in the first tick of a frame, at the fraction of the jump where x = gate
        tick = 1.0 / 240.0
        origin = t0 - FRAME_S + tick
        before = xs[0] - 5.0
        for k, e in enumerate(passed):
            fraction = (xs[k] - before) / (xs[k] + 5.0 - before)
            assert e.time_s == pytest.approx(t0 + k * FRAME_S + fraction * tick - origin, abs=1e-9)
            before = xs[k] + 5.0
        (finished,) = log.of(events.CourseFinished)
        assert finished.time_s == passed[-1].time_s == state(sim).time_s and state(sim).status == "finished"
        assert finished.medal == "gold" and finished.best_s == finished.time_s
        sim.run(1.0)
        assert sim.telemetry().course.time_s == finished.time_s  # the clock stops at the finish


def test_restart_mid_run_ends_it():
    with Simulation("street") as sim:
        log = Log(sim)
        counted_down(sim, "street-run")
        move(sim, (15.0, 0.0, 3.0))
        move(sim, (25.0, 0.0, 3.0))
        assert state(sim).gate == 1
        sim.reset()
        assert sim.telemetry().course.status == "idle" and sim.telemetry().course.course_id == ""
        move(sim, (55.0, 0.0, 3.0))
        assert len(log.of(events.GatePassed)) == 1  # nothing counts once idle
        sim.select("course:street-run")  # a fresh run
        assert state(sim).status == "countdown" and state(sim).splits == () and state(sim).gate == 0


def test_the_field_course_finishes_on_landing_on_its_pad():
    with Simulation("field") as sim:
        log = Log(sim)
        counted_down(sim, "field-hoops")
        for g in sim.level.courses[0].gates:
            x, y, z = g.position
            move(sim, (x - 2.0 * 0.9487, y - 2.0 * 0.3162, z))
            move(sim, (x + 2.0 * 0.9487, y + 2.0 * 0.3162, z))
        assert state(sim).gate == 3 and state(sim).status == "running"  # a landing to go
        arrival = sim.level.pad("arrival")
        move(sim, (arrival.position[0], arrival.position[1], arrival.top_m + 0.3))
        sim.run(3.0)  # motors off: it falls the 0.3 m onto the pad and comes to rest
        (finished,) = log.of(events.CourseFinished)
        assert state(sim).status == "finished" and finished.time_s > state(sim).splits[-1]


# -- best times ---------------------------------------------------------------------------------
def race(sim: Simulation, step_m: float) -> float:
    """Fly the street course in jumps of `step_m` per frame: a slower run with shorter jumps."""
    counted_down(sim, "street-run")
    x = 2.0
    while state(sim).status != "finished":
        x += step_m
        move(sim, (x, 0.0, 3.0))
    return state(sim).time_s


def test_best_times_are_kept_and_improved_only_by_a_better_time(tmp_path):
    path = tmp_path / "best_times.json"
    with Simulation("street", best_times=path) as sim:
        log = Log(sim)
        first = race(sim, 2.0)
        kept = json.loads(path.read_text(encoding="utf-8"))
        (entry,) = kept["entries"].values()
        assert entry["time_s"] == first and entry["course"] == "street-run" and entry["level"] == sim.level.name
        assert len(entry["splits"]) == 5
        slower = race(sim, 1.0)
        assert slower > first and json.loads(path.read_text(encoding="utf-8")) == kept  # untouched
        deltas = [e.delta_s for e in log.of(events.GatePassed)[5:]]
        assert all(d is not None and d > 0 for d in deltas)  # behind the best at every gate
        assert log.of(events.CourseFinished)[-1].best_s == first
    with Simulation("street", best_times=path) as sim:  # a new session reads it back
        faster = race(sim, 4.0)
        assert faster < first
        (entry,) = json.loads(path.read_text(encoding="utf-8"))["entries"].values()
        assert entry["time_s"] == faster
    assert sorted(p.name for p in tmp_path.iterdir()) == ["best_times.json"]  # no temporary left


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe\x00garbage", b'{"format": "other"}',
                                     b'{"format": "donify-best-times", "version": 1, "entries": {"k": {"time_s": -1}}}'])
def test_a_corrupt_file_is_set_aside_in_one_line_never_lost(tmp_path, content):
    path = tmp_path / "best_times.json"
    path.write_bytes(content)
    (tmp_path / "best_times.json.corrupt-1").write_bytes(b"an older one")
    best = BestTimes(path)
    assert len(best.problems) == 1 and "\n" not in best.problems[0]
    assert str(path) in best.problems[0] and "expected" in best.problems[0] and "corrupt-2" in best.problems[0]
    assert (tmp_path / "best_times.json.corrupt-2").read_bytes() == content  # kept, aside
    assert (tmp_path / "best_times.json.corrupt-1").read_bytes() == b"an older one"
    assert best.entries == {} and not path.exists()
    assert best.record(load_level("street"), "street-run", 20.0, [4.0, 8.0, 12.0, 16.0, 20.0])
    assert BestTimes(path).problems == []


def test_a_kill_during_save_never_loses_the_previous_file(tmp_path):
    """A real process killed between writing the new file and renaming it over the old one."""
    path = tmp_path / "best_times.json"
    level = load_level("street")
    assert BestTimes(path).record(level, "street-run", 30.0, [1.0] * 5)
    before = path.read_bytes()
    code = ("import os, sys, time\nfrom game.best_times import BestTimes\nfrom world.level_file import load_level\n"
            "def stuck(*a, **k):\n    print('written', flush=True)\n    time.sleep(120)\n"
            "os.replace = stuck\n"
            f"BestTimes({str(path)!r}).record(load_level('street'), 'street-run', 10.0, [1.0] * 5)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            env={**os.environ, "PYGLET_HEADLESS": "1"})
    try:
        assert proc.stdout.readline() == b"written\n"
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert path.read_bytes() == before  # the previous file, whole
    assert len([p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]) == 1  # the killed writer's
    best = BestTimes(path)
    assert best.problems == [] and best.get(level, "street-run").time_s == 30.0
    assert best.record(level, "street-run", 25.0, [1.0] * 5)  # the next save cleans up after the killed one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["best_times.json"]


# -- random flights -----------------------------------------------------------------------------
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["frames", "jump", "select", "reset", "stick"]),
                          st.floats(-30.0, 180.0), st.floats(-8.0, 8.0), st.floats(0.5, 8.0)),
                min_size=5, max_size=40),
       st.sampled_from(["street", "field"]))
def test_random_flights_keep_the_course_state_consistent(actions, level):
    with Simulation(level) as sim:
        course_id = sim.level.courses[0].id
        log = Log(sim)
        previous = sim.telemetry().course
        for kind, a, b, c in actions:
            if kind == "frames":
                sim.run(c / 4)
            elif kind == "jump":
                move(sim, (a if level == "street" else a / 5, b, c))
            elif kind == "select":
                sim.select(f"course:{course_id}")
            elif kind == "reset":
                sim.reset()
            else:
                sim.pad.rt, sim.pad.left = c / 8, (b / 8, a / 180)
                sim.step()
            record = sim.telemetry().course
            assert record.status in ("idle", "countdown", "running", "finished")
            assert 0 <= record.gate <= record.gates and len(record.splits) == record.gate
            assert list(record.splits) == sorted(record.splits) and all(s >= 0.0 for s in record.splits)
            if record.status != "idle":
                assert record.course_id == course_id and record.gates == len(sim.level.courses[0].gates)
            same_run = record.status in ("running", "finished") and previous.status in ("running", "finished")
            if same_run and kind not in ("select", "reset"):
                assert record.gate >= previous.gate and record.splits[:len(previous.splits)] == previous.splits
            if record.status == "finished":
                assert record.time_s >= record.splits[-1]
            previous = record
        assert len(log.of(events.CourseFinished)) <= len(log.of(events.CourseStarted))


LAPS_LEVEL = """\
format_version = 1
name = "Laps"
spawn_pad = "start"

[[pads]]
id = "start"
position = [0.0, 0.0]

[[courses]]
id = "loop"
name = "Loop"
par_s = 5.0
laps = 2

[[courses.gates]]
position = [10.0, 0.0, 3.0]
size = [2.0, 2.0]

[[courses.gates]]
position = [10.0, 10.0, 3.0]
heading_deg = 180.0
radius = 1.0
"""


def test_a_gate_start_and_laps():
    from world.level_file import parse_level

    with Simulation(parse_level(LAPS_LEVEL, "laps.toml")) as sim:
        log = Log(sim)
        counted_down(sim, "loop")
        assert state(sim).gates == 4
        move(sim, (5.0, 0.0, 3.0))  # off the pad: with start = "gate" the timer still waits
        assert log.of(events.CourseStarted) == [] and state(sim).time_s == 0.0
        lap = [(15.0, 0.0, 3.0), (15.0, 10.0, 3.0), (5.0, 10.0, 3.0), (5.0, 0.0, 3.0)]
        for p in lap:  # through gate 0 eastwards, gate 1 westwards, back behind gate 0
            move(sim, p)
        assert log.of(events.CourseStarted) == [events.CourseStarted("loop")]
        assert [e.index for e in log.of(events.GatePassed)] == [0, 1] and state(sim).splits[0] == 0.0
        for p in lap[:3]:  # the second lap: gate 0 again (passage 2), then gate 1 (passage 3) ends it
            move(sim, p)
        assert [e.index for e in log.of(events.GatePassed)] == [0, 1, 2, 3]
        (finished,) = log.of(events.CourseFinished)
        # each crossing halfway along a 10 m jump made in the first tick of its frame: from the
        # first (frame 1 of the lap) to the last (frame 3 of the second lap) six frames exactly
        assert finished.time_s == pytest.approx(6 * FRAME_S, abs=1e-9) and finished.medal == "gold"


def test_a_level_swapped_in_brings_its_courses_and_ends_a_run_of_a_course_it_lacks():
    from systems.menu import Menu

    with Simulation("street") as sim:
        counted_down(sim, "street-run")
        move(sim, (15.0, 0.0, 3.0))
        sim.apply_level("field")  # what the hot reload does
        sim.step()
        ids = sim.app.resource(Menu).ids()
        assert "course:field-hoops" in ids and "course:street-run" not in ids
        assert sim.telemetry().course.status == "idle"
        with pytest.raises(ValueError):
            sim.select("course:street-run")


def test_the_dynamics_at_a_gust_speed_of_96_m_s_do_not_skip_a_gate():
    """Flown by the dynamics, not moved by hand: at 96 m/s each 1/240 s tick is a 0.4 m step."""
    from world.level_file import parse_level

    with Simulation(parse_level(LAPS_LEVEL, "laps.toml")) as sim:
        log = Log(sim)
        counted_down(sim, "loop")
        move(sim, (5.0, 0.0, 3.0))
        sim.components(RigidBody)[0].velocity[:] = (96.0, 0.0, 0.0)
        sim.run(0.1)  # 5 m to the gate: about 0.05 s
        assert [e.index for e in log.of(events.GatePassed)] == [0] and state(sim).started
