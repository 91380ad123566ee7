"""A level's traffic: AI drones flying their routes (flight scripts) on their own pads — they
climb and cruise as the script says, loop, restart after a crash, leave the player's pad alone,
fly the same for the same seed, and go and come with the level (apply_level, hot reload)."""

from __future__ import annotations

import logging
import math
import os

import pytest

from components import events
from components.world import Collider
from game.levels import apply_reload
from game.simulation import Simulation
from systems.traffic import CRASH_RESTART_S, TrafficDrone
from world.level import Level
from world.level_watch import LevelWatcher

# the manual flight's figures (docs/model.md, manual flight): RT raises MotorPower at 0.5 per
# second from 0; cruise speed = 8 m/s × MotorPower; Y climbs at 2 m/s
POWER_RATE_PER_S = 0.5
CRUISE_M_S_PER_POWER = 8.0
CLIMB_M_S = 2.0
FRAME_S = 1.0 / 60.0

LEVEL = """\
format_version = 1
name = "Traffic test"
spawn_pad = "start"

[ground]
size = [200.0, 200.0]

[[pads]]
id = "start"
position = [0.0, 0.0]
"""

# arm to MotorPower 0.5 (cruise 4 m/s), climb 2 s (4 m), cruise along the heading from 4 s
CLIMB_AND_CRUISE = """\
seconds = 12.0

[[timeline]]
at = 0.0
rt = 1.0
for = 1.0

[[timeline]]
at = 1.0
hold = "Y"
for = 2.0

[[timeline]]
at = 4.0
left = [0.0, 1.0]
for = 0.2
"""


def make_level(folder, traffic: str, routes: dict[str, str], extra: str = "") -> str:
    """A level folder with `traffic` entries and the `routes` files; the level file's path."""
    (folder / "routes").mkdir(parents=True, exist_ok=True)
    for name, text in routes.items():
        (folder / "routes" / name).write_text(text, encoding="utf-8")
    path = folder / "level.toml"
    path.write_text(LEVEL + extra + traffic, encoding="utf-8")
    return str(path)


def entry(id_: str, position, script: str, yaw_deg: float | None = None, loop: bool = False, delay: float = 0.0) -> str:
    text = f'\n[[traffic]]\nid = "{id_}"\nposition = [{position[0]}, {position[1]}]\nscript = "routes/{script}"\n'
    if yaw_deg is not None:
        text += f"yaw_deg = {yaw_deg}\n"
    if loop:
        text += "loop = true\n"
    if delay:
        text += f"start_delay_s = {delay}\n"
    return text


def traffic_drones(sim: Simulation):
    return {d.components(TrafficDrone)[0].id: d for d in sim.drones[1:]}


def test_traffic_climbs_and_cruises_as_its_script_says(tmp_path):
    path = make_level(tmp_path, entry("north", (10.0, 5.0), "r.toml", yaw_deg=90.0), {"r.toml": CLIMB_AND_CRUISE})
    with Simulation(path) as sim:
        assert len(sim.drones) == 1  # the traffic comes with the first frame
        sim.step()
        (drone,) = sim.drones[1:]
        h = sim.vehicle.envelope_size_m[2]
        start = drone.telemetry().position
        assert start == pytest.approx((10.0, 5.0, h / 2), abs=1e-3)
        sim.run(3.5 - sim.time)  # armed, climbed for 2 s
        t = drone.telemetry()
        assert t.armed and t.motor_power == pytest.approx(POWER_RATE_PER_S * 1.0, abs=0.02)
        assert t.position[2] - start[2] == pytest.approx(CLIMB_M_S * 2.0, rel=0.15)
        assert math.dist(t.position[:2], start[:2]) < 0.1  # straight up
        sim.run(10.0 - sim.time)  # cruising north (its heading, 90°) since 4 s
        t = drone.telemetry()
        cruise = CRUISE_M_S_PER_POWER * POWER_RATE_PER_S
        assert t.velocity[1] == pytest.approx(cruise, rel=0.05) and abs(t.velocity[0]) < 0.1
        assert t.position[1] - start[1] == pytest.approx(cruise * 6.0, rel=0.2)  # 6 s since the flick, less the ramp up
        # the player's pad and drone were never touched
        assert sim.pad.left == (0.0, 0.0) and sim.pad.rt == 0.0 and not sim.pad.held
        player = sim.telemetry()
        assert player.motor_power == 0.0 and not player.armed
        assert player.position == pytest.approx(sim.level.spawn_position(h))


def test_a_start_delay_holds_the_route(tmp_path):
    path = make_level(tmp_path, entry("late", (10.0, 5.0), "r.toml", delay=2.0), {"r.toml": CLIMB_AND_CRUISE})
    with Simulation(path) as sim:
        sim.run(1.9)
        (drone,) = sim.drones[1:]
        assert drone.telemetry().motor_power == 0.0
        sim.run(1.0)  # 0.9 s into its route: RT held since 2 s
        assert drone.telemetry().motor_power == pytest.approx(POWER_RATE_PER_S * 0.9, abs=0.05)


def test_a_looping_route_restarts_on_its_start_and_flies_again(tmp_path):
    path = make_level(tmp_path, entry("loop", (10.0, 5.0), "r.toml", loop=True), {"r.toml": CLIMB_AND_CRUISE})
    with Simulation(path) as sim:
        sim.step()
        (drone,) = sim.drones[1:]
        start = drone.telemetry().position
        lap = []
        for _ in range(round(12.0 / FRAME_S)):
            lap.append(drone.telemetry().position)
            sim.step()
        assert math.dist(lap[-1], start) > 20.0  # far along its cruise when the lap ends
        again = []
        for _ in range(round(12.0 / FRAME_S)):
            again.append(drone.telemetry().position)
            sim.step()
        assert again[0] == pytest.approx(start, abs=1e-9)  # back on its start place
        for a, b in zip(lap[1:], again[1:]):  # and the same flight again
            assert math.dist(a, b) < 1e-6
        assert drone.components(TrafficDrone)[0].laps == 2


def test_without_loop_the_route_plays_once(tmp_path):
    path = make_level(tmp_path, entry("once", (10.0, 5.0), "r.toml"), {"r.toml": CLIMB_AND_CRUISE})
    with Simulation(path) as sim:
        sim.run(14.0)
        (drone,) = sim.drones[1:]
        far = drone.telemetry().position
        sim.run(2.0)
        assert drone.telemetry().position[0] > far[0] > 40.0  # still cruising east (yaw 0): never sent back
        assert drone.components(TrafficDrone)[0].laps == 0


def test_a_crashed_traffic_drone_restarts_after_a_few_seconds(tmp_path):
    # full power: cruise 8 m/s into a wall 15 m ahead — above the frame's crash speed (6 m/s)
    route = CLIMB_AND_CRUISE.replace("rt = 1.0\nfor = 1.0", "rt = 1.0\nfor = 2.0").replace("at = 1.0\nhold", "at = 2.0\nhold")
    wall = '\n[[boxes]]\nid = "wall"\nposition = [25.0, 5.0]\nsize = [1.0, 20.0, 10.0]\nkind = "wall"\n'
    path = make_level(tmp_path, entry("reckless", (10.0, 5.0), "r.toml"), {"r.toml": route}, extra=wall)
    crashes = []

    class Watch:
        def on_crashed(self, event):
            crashes.append((sim.time, event.entity))

    with Simulation(path) as sim:
        watch = Watch()
        sim.app.on(events.Crashed, watch.on_crashed)
        sim.step()
        (drone,) = sim.drones[1:]
        start = drone.telemetry().position
        while not crashes and sim.time < 15.0:
            sim.step()
        assert crashes and crashes[0][1] == drone.entity, "it hit the wall and crashed"
        crashed_at = crashes[0][0]
        sim.run(CRASH_RESTART_S - 0.2)
        assert drone.telemetry().crashed
        sim.run(0.4)
        t = drone.telemetry()
        assert not t.crashed and t.damage == 0.0  # restarted: repaired, on its start place, route again
        assert math.dist(t.position, start) < 0.05
        assert sim.time - crashed_at == pytest.approx(CRASH_RESTART_S, abs=0.3)
        assert drone.components(TrafficDrone)[0].laps == 1
        assert not sim.telemetry().crashed  # the player's drone is not the one that crashed


def test_traffic_is_deterministic_for_every_drone(tmp_path):
    path = make_level(tmp_path, entry("a", (10.0, 5.0), "r.toml", loop=True) +
                      entry("b", (-10.0, 5.0), "r.toml", yaw_deg=135.0, delay=1.5), {"r.toml": CLIMB_AND_CRUISE})

    def fly():
        out = []
        with Simulation(path, seed=7, wind=(1.0, -1.0, 0.0)) as sim:
            sim.set_weather(gusts=0.7)
            for frame in range(round(14.0 / FRAME_S)):
                sim.pad.rt = 1.0 if frame < 60 else 0.0
                sim.step(FRAME_S if frame % 4 else 1.0 / 45.0)
                out.append([d.telemetry().as_dict() for d in sim.drones])
        return out

    first, second = fly(), fly()
    assert len(first[-1]) == 3
    assert first == second


def test_apply_level_and_hot_reload_swap_the_traffic(tmp_path):
    a = make_level(tmp_path / "a", entry("one", (10.0, 5.0), "r.toml") + entry("two", (-10.0, 5.0), "r.toml"),
                   {"r.toml": CLIMB_AND_CRUISE})
    b = make_level(tmp_path / "b", entry("three", (5.0, -20.0), "r.toml", yaw_deg=180.0), {"r.toml": CLIMB_AND_CRUISE})
    with Simulation(a) as sim:
        sim.run(2.0)
        old = traffic_drones(sim)
        assert set(old) == {"one", "two"}
        player = sim.telemetry().position
        sim.apply_level(b)
        sim.step()
        new = traffic_drones(sim)
        assert set(new) == {"three"} and not {d.entity for d in old.values()} & {d.entity for d in new.values()}
        assert new["three"].telemetry().position[:2] == pytest.approx((5.0, -20.0))
        assert sim.telemetry().position == pytest.approx(player)  # the player's drone is not the level's

        # the hot reload path: a save of b's file moving its drone
        watcher = LevelWatcher(b, debounce_s=0.0, interval_s=0.0)
        text = open(b, encoding="utf-8").read().replace("[5.0, -20.0]", "[30.0, 30.0]")
        with open(b, "w", encoding="utf-8") as f:
            f.write(text)
        os.utime(b, ns=(10**18, 10**18))
        assert watcher.poll(0.0) is None  # the change is seen; it loads once it is quiet
        assert apply_reload(sim.app, watcher.poll(1.0)) == []
        sim.step()
        moved = traffic_drones(sim)
        assert set(moved) == {"three"} and moved["three"].telemetry().position[:2] == pytest.approx((30.0, 30.0))
        assert len(sim.drones) == 2

        sim.apply_level(None)  # the open world: no traffic
        sim.step()
        assert len(sim.drones) == 1


def test_a_bad_route_at_run_time_is_one_line_and_no_drone(tmp_path, caplog):
    path = make_level(tmp_path, entry("good", (10.0, 5.0), "r.toml") + entry("bad", (-10.0, 5.0), "bad.toml"),
                      {"r.toml": CLIMB_AND_CRUISE, "bad.toml": CLIMB_AND_CRUISE})
    (tmp_path / "routes" / "bad.toml").write_text('[[timeline]]\nat = 0.0\npress = "Z"\n', encoding="utf-8")
    messages = []

    class Watch:
        def on_message(self, event):
            messages.append(event.text)

    with caplog.at_level(logging.WARNING, logger="donify.traffic"):
        with Simulation(path) as sim:  # the level itself is valid: the route is read as it flies
            watch = Watch()
            sim.app.on(events.Message, watch.on_message)
            sim.run(2.0)
            assert set(traffic_drones(sim)) == {"good"}
    expected = f"{tmp_path / 'routes' / 'bad.toml'}:3: timeline.0.press: expected a button"
    assert len(messages) == 1 and messages[0].startswith(expected)
    assert [r.getMessage() for r in caplog.records] == messages


def test_the_street_ships_traffic_and_leaves_the_player_alone():
    with Simulation("street") as sim:
        sim.run(8.0)
        drones = traffic_drones(sim)
        assert set(drones) == {t.id for t in sim.level.traffic} and len(drones) >= 2
        assert any(d.telemetry().position[2] > 2.0 for d in drones.values())  # they fly
        assert sim.pad.left == (0.0, 0.0) and not sim.pad.held and sim.pad.rt == 0.0
        assert sim.telemetry().motor_power == 0.0
        for d in drones.values():
            assert not d.components(Collider)[0].crashed
        gone = drones[sim.level.traffic[0].id]
        sim.remove_drone(gone)  # a traffic drone may be taken out: the others fly on
        sim.run(1.0)
        assert gone not in sim.drones and len(sim.drones) == len(drones)


def test_a_level_made_in_code_with_a_bad_pad_is_one_line_not_a_crash(tmp_path, monkeypatch):
    (tmp_path / "routes").mkdir()
    (tmp_path / "routes" / "r.toml").write_text(CLIMB_AND_CRUISE, encoding="utf-8")
    level = Level.model_validate({  # built in code: the file's checks are skipped
        "format_version": 1, "name": "coded", "spawn_pad": "start", "pads": [{"id": "start", "position": [0.0, 0.0]}],
        "traffic": [{"id": "t", "pad": "nowhere", "script": "routes/r.toml"}]})
    messages = []

    class Watch:
        def on_message(self, event):
            messages.append(event.text)

    monkeypatch.chdir(tmp_path)  # without a file, routes are read from the current folder
    with Simulation(level) as sim:
        watch = Watch()
        sim.app.on(events.Message, watch.on_message)
        sim.run(1.0)
        assert len(sim.drones) == 1
    assert messages == ["coded: traffic.0.pad: expected the id of a pad, got 'nowhere'; not flown"]
