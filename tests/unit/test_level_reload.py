"""Hot reload: a saved level file is reloaded after a quiet time; on errors the last good level
stays and the errors are reported; applying a level never touches the drone's state."""

from __future__ import annotations

import os
import shutil

import pytest

from components.flight import RigidBody
from components import events
from game.levels import apply_reload
from world.level import ActiveLevel
from world.level_file import LEVELS_DIR
from world.level_watch import LevelWatcher


class Reloads:
    def __init__(self, app):
        self.seen = []
        app.on(events.LevelReloaded, self.on_reloaded)

    def on_reloaded(self, event):
        self.seen.append(list(event.errors))


@pytest.fixture
def level_file(tmp_path):
    path = tmp_path / "level.toml"
    shutil.copy(LEVELS_DIR / "field" / "level.toml", path)
    return path


def save(path, text, stamp):
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))  # a distinct mtime even on coarse file systems


def test_debounced_reload(level_file):
    watcher = LevelWatcher(level_file, debounce_s=0.3, interval_s=0.0)
    assert watcher.poll(0.0) is None  # nothing changed
    text = level_file.read_text().replace('name = "The field"', 'name = "The meadow"')
    save(level_file, text, 10**18)
    assert watcher.poll(1.0) is None  # the change is seen: wait for it to settle
    assert watcher.poll(1.2) is None
    result = watcher.poll(1.35)
    assert result.ok and result.level.name == "The meadow" and result.errors == []
    assert watcher.poll(2.0) is None  # once per change


def test_a_second_save_restarts_the_quiet_time(level_file):
    watcher = LevelWatcher(level_file, debounce_s=0.3, interval_s=0.0)
    save(level_file, level_file.read_text() + "\n", 10**18)
    assert watcher.poll(1.0) is None
    save(level_file, level_file.read_text() + "\n", 10**18 + 10**9)
    assert watcher.poll(1.2) is None
    assert watcher.poll(1.4) is None  # 0.2 s after the second save
    assert watcher.poll(1.55).ok


def test_errors_keep_the_last_good_level_and_are_reported(make_sim, level_file):
    sim = make_sim(level=level_file)
    reloads = Reloads(sim.app)
    good = sim.app.resource(ActiveLevel).level
    watcher = LevelWatcher(level_file, debounce_s=0.0, interval_s=0.0)
    save(level_file, level_file.read_text().replace("radius = 0.4", 'radius = "thick"'), 10**18)
    watcher.poll(0.0)
    result = watcher.poll(0.1)
    assert not result.ok
    errors = apply_reload(sim.app, result)
    assert len(errors) == 1 and "cylinders.0.radius: expected a valid number" in errors[0]
    assert errors[0].startswith(f"{level_file}:")
    assert sim.app.resource(ActiveLevel).level is good
    assert reloads.seen == [errors]
    sim.run(0.5)  # the game goes on


def test_applying_a_level_swaps_geometry_not_the_drone(make_sim, level_file):
    sim = make_sim(level=level_file, position=(10.0, 0.0, 3.0))
    reloads = Reloads(sim.app)
    sim.run(0.2)
    (body,) = sim.components(RigidBody)
    body.velocity[:] = [0.0, 0.0, 0.0]
    before = (list(body.position), list(body.velocity), list(body.quaternion))
    # a wall appears right beside the drone's path
    watcher = LevelWatcher(level_file, debounce_s=0.0, interval_s=0.0)
    # (y −8 … 2 m: south of the field course's way to its second gate, which passes x = 12 at y = 4)
    wall = '\n[[boxes]]\nid = "new-wall"\nposition = [12.0, -3.0]\nsize = [0.5, 10.0, 6.0]\nkind = "wall"\n'
    save(level_file, level_file.read_text() + wall, 10**18)
    watcher.poll(0.0)
    assert apply_reload(sim.app, watcher.poll(0.1)) == []
    assert reloads.seen == [[]]
    assert (list(body.position), list(body.velocity), list(body.quaternion)) == before
    assert sim.app.resource(ActiveLevel).level.boxes[-1].id == "new-wall"
    body.velocity[:] = [6.0, 0.0, 0.0]
    sim.run(0.5)
    assert body.position[0] <= 12.0 - 0.25 - 0.0876 + 1e-3, "the new wall collides"


def test_simulation_apply_level_by_name(make_sim):
    sim = make_sim(level="field", position=(0.0, 0.0, 5.0))
    (body,) = sim.components(RigidBody)
    before = list(body.position)
    sim.apply_level("street")
    assert sim.level.name == "The street" and list(body.position) == before
    assert sim.config.spawn_position_m == sim.level.spawn_position(sim.vehicle.envelope_size_m[2])


# -- the window's watcher: loads in a worker process, handed back in small steps --------------
def _many_boxes(level_file, n: int) -> str:
    rows = [f'[[boxes]]\nid = "b{i}"\nposition = [{20 + 3 * (i % 40)}.0, {20 + 3 * (i // 40)}.0]\n'
            f'size = [1.0, 1.0, 2.0]\nkind = "obstacle"\n' for i in range(n)]
    return level_file.read_text() + "\n" + "\n".join(rows)


def test_a_packed_result_comes_back_equal_in_small_steps(level_file):
    from world.level_watch import CHUNK_ITEMS, load_result, pack, unpack, unpack_steps

    save(level_file, _many_boxes(level_file, 3 * CHUNK_ITEMS + 5), 10**18)
    result = load_result(level_file)
    pieces, skeleton = pack(result)
    # the level's boxes and the geometry's box rows travel as chunks of CHUNK_ITEMS
    assert sorted(len(chunks) for _, chunks in pieces) == [4, 4]
    steps = unpack_steps(pieces, skeleton)
    assert sum(1 for _ in steps) == 8  # one step per chunk: the frame can stop between two
    back = unpack(pieces, skeleton)
    assert back.level == result.level and back.level.boxes[-1].id == f"b{3 * CHUNK_ITEMS + 4}"
    assert back.geometry.boxes == result.geometry.boxes
    assert (back.geometry.box_lo == result.geometry.box_lo).all()


def _poll_until(watcher, stop_s: float = 120.0):
    import time

    start, now = time.monotonic(), 0.0
    while time.monotonic() - start < stop_s:
        now += 0.05
        result = watcher.poll(now)
        if result is not None:
            return result
        time.sleep(0.01)
    raise AssertionError("no reload result")


def test_the_background_watcher_loads_in_a_worker_and_keeps_errors(make_sim, level_file):
    from world.level_watch import BackgroundLevelWatcher

    sim = make_sim(level=level_file, position=(0.0, 0.0, 3.0))
    watcher = BackgroundLevelWatcher(level_file, debounce_s=0.1, interval_s=0.0, budget_s=0.001)
    try:
        save(level_file, _many_boxes(level_file, 600), 10**18)
        result = _poll_until(watcher)
        assert result.ok and len(result.level.boxes) == 600 and len(result.geometry.boxes) >= 600
        assert watcher._executor is not None  # it came from the worker process, not this thread
        assert apply_reload(sim.app, result) == []
        assert sim.app.resource(ActiveLevel).geometry is result.geometry  # compiled once, in the worker
        save(level_file, level_file.read_text().replace("radius = 0.4", 'radius = "thick"'), 10**18 + 10**9)
        broken = _poll_until(watcher)
        assert not broken.ok and "cylinders.0.radius" in broken.errors[0]
    finally:
        watcher.close()


def test_without_a_worker_process_the_loads_run_here(monkeypatch, level_file):
    import world.level_watch as level_watch

    def no_process(*args, **kwargs):
        raise OSError("no /dev/shm")

    monkeypatch.setattr(level_watch, "ProcessPoolExecutor", no_process)
    watcher = level_watch.BackgroundLevelWatcher(level_file, debounce_s=0.1, interval_s=0.0)
    save(level_file, level_file.read_text().replace('name = "The field"', 'name = "The meadow"'), 10**18)
    assert watcher.poll(0.0) is None  # the change is seen (no worker can start)
    result = watcher.poll(0.2)
    assert result.ok and result.level.name == "The meadow" and result.geometry is not None
    watcher.close()
