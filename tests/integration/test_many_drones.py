"""Many drones in one Simulation: each its own pad, telemetry and verbs, independent unless they
touch; the same inputs give the same flight whatever the order the drones were made in."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.flight import Controller, RigidBody
from engine.datafile import DataFileError
from game.simulation import Drone, Simulation

# the street's spawn pad is at the origin; these points are on the road of the street level,
# far enough apart (≥ 6 m) that drones flown a few seconds from them never meet
STREET_POINTS = ((3.0, -2.0), (9.0, -2.0), (-3.0, -2.0), (15.0, -2.0))


def _resting(sim: Simulation, xy) -> tuple[float, float, float]:
    """Centre of mass resting on the street's ground at xy."""
    return (xy[0], xy[1], 0.5 * sim.vehicle.envelope_size_m[2])


def test_the_player_is_drones_0_and_the_simulations_verbs_are_its():
    with Simulation("street") as sim:
        assert len(sim.drones) == 1 and isinstance(sim.drones[0], Drone)
        player = sim.drones[0]
        assert player.pad is sim.pad
        assert player.telemetry() == sim.telemetry()
        (body,) = player.components(RigidBody)
        assert body is sim.components(RigidBody)[0]


def test_one_drones_input_moves_no_other():
    with Simulation("street") as sim:
        other = sim.add_drone(position=_resting(sim, STREET_POINTS[1]), yaw_deg=90.0)
        before = sim.telemetry()
        other.pad.rt = 1.0  # only the other drone's propulsion rises
        sim.run(1.0)
        other.pad.rt = 0.0
        other.pad.press("Y")
        sim.run(1.5)
        mine, its = sim.telemetry(), other.telemetry()
        assert mine.position == before.position and mine.motor_power == 0.0 and not mine.armed
        assert its.armed and its.motor_power > 0.4
        assert its.position[2] > 1.0  # climbed with Y
        assert math.isclose(its.yaw_deg, 90.0, abs_tol=1.0)


def _fly(points, order, seconds=2.0, seed=3):
    """Drones on `points` (the first the player's spawn), made in `order`; each climbs and
    cruises with its own inputs (they depend on its point alone). Returns {point: telemetry
    dicts per frame}."""
    sim = Simulation("street", seed=seed, position=_resting_xy(points[0]), yaw_deg=_yaw(points[0]),
                     wind=(1.0, -2.0, 0.0))
    sim.set_weather(gusts=0.8)
    drones = {points[0]: sim.drones[0]}
    for i in order:
        drones[points[i]] = sim.add_drone(position=_resting_xy(points[i]), yaw_deg=_yaw(points[i]))
    records = {p: [] for p in drones}
    try:
        for frame in range(round(seconds * 60)):
            for p, d in drones.items():
                d.pad.rt = 1.0 if frame < 30 else 0.0
                d.pad.left = (p[0] / 20.0, 0.5) if 60 <= frame < 70 else (0.0, 0.0)
                if frame == 30:
                    d.pad.press("Y")
                elif frame == 80:
                    d.pad.release("Y")
            sim.step(1.0 / 60.0 if frame % 3 else 1.0 / 47.0)  # jittered frames
            for p, d in drones.items():
                records[p].append(d.telemetry().as_dict())
    finally:
        sim.close()
    return records


def _yaw(point) -> float:
    return 10.0 * point[0]


def _resting_xy(xy):
    return (xy[0], xy[1], 0.5 * 0.041)


def test_the_same_inputs_fly_the_same_whatever_the_order_the_drones_were_made_in():
    a = _fly(STREET_POINTS, order=(1, 2, 3))
    b = _fly(STREET_POINTS, order=(3, 1, 2))
    assert a.keys() == b.keys()
    for point in a:
        assert a[point] == b[point], f"the drone from {point} flew differently"
    moved = [math.dist(r[-1]["position"], r[0]["position"]) for r in a.values()]
    assert min(moved) > 1.0  # every drone flew: the comparison is not of drones at rest


def test_a_drone_flies_as_it_would_alone():
    together = _fly(STREET_POINTS[:2], order=(1,))
    alone = _fly(STREET_POINTS[1:2], order=())
    assert together[STREET_POINTS[1]] == alone[STREET_POINTS[1]]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pads=st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0, 1), st.sampled_from(["", "Y", "A", "LS"])),
                     min_size=3, max_size=3))
def test_random_inputs_to_one_drone_never_reach_another(pads):
    """Each drone flies its own random sticks; a twin Simulation where the other drones get no
    input at all gives the watched drone the very same flight."""
    def run(drive_others: bool):
        with Simulation(level=None, position=(0.0, 0.0, 50.0)) as sim:
            others = [sim.add_drone(position=(40.0 * (i + 1), 0.0, 50.0)) for i in range(2)]
            watched = sim.drones[0]
            for d in sim.drones:
                d.pad.rt = 1.0
            sim.run(1.0)
            for d in sim.drones:
                d.pad.rt = 0.0
            out = []
            for frame in range(90):
                for k, d in enumerate([watched, *others]):
                    if d is watched or drive_others:
                        x, y, t, button = pads[k]
                        d.pad.left = (x, y) if frame % 30 < 15 else (0.0, 0.0)
                        d.pad.lt = t if frame > 60 else 0.0
                        if button and frame == 10:
                            d.pad.press(button)
                sim.step()
                out.append(watched.telemetry().as_dict())
            return out
    assert run(True) == run(False)


def test_each_drone_has_its_own_assists_and_restart():
    with Simulation("street") as sim:
        other = sim.add_drone(position=_resting(sim, STREET_POINTS[1]))
        other.select("takeoff")
        assert other.telemetry().mode == "takeoff"
        assert sim.telemetry().mode == "manual"  # the player's drone was not asked
        sim.run(4.0)
        lifted = other.telemetry()
        assert lifted.position[2] > 0.8 and lifted.mode == "manual"  # took off, then handed back
        assert sim.telemetry().position[2] < 0.1
        sim.pad.press("X")  # the player's own take-off, from its pad
        sim.step()
        sim.pad.release("X")
        assert sim.telemetry().mode == "takeoff" and other.telemetry().mode == "manual"
        other.reset()
        assert other.telemetry().position == _resting(sim, STREET_POINTS[1])
        assert sim.telemetry().mode == "takeoff"  # another drone's restart leaves the player alone
        other.set_mode("angle")
        assert other.telemetry().mode == "angle" and sim.telemetry().mode == "takeoff"


def test_add_and_remove_keep_creation_order_and_refuse_bad_arguments():
    with Simulation("street") as sim:
        a = sim.add_drone(position=(3.0, 4.0, 1.0))
        b = sim.add_drone(position=(5.0, 4.0, 1.0), yaw_deg=-45)
        assert sim.drones == [sim.drones[0], a, b]
        sim.remove_drone(a)
        assert sim.drones == [sim.drones[0], b]
        with pytest.raises(ValueError, match="removed"):
            a.telemetry()
        with pytest.raises(ValueError):
            sim.remove_drone(a)
        with pytest.raises(ValueError, match="player"):
            sim.remove_drone(sim.drones[0])
        c = sim.add_drone(position=(7.0, 4.0, 1.0))  # reuses a's row: starts clean
        assert c.telemetry().position == (7.0, 4.0, 1.0) and c.telemetry().damage == 0.0
        for bad in ((1.0, 2.0), (1.0, math.nan, 2.0), "abc", (1, 2, 3, 4)):
            with pytest.raises(ValueError, match="position"):
                sim.add_drone(position=bad)
        for bad in (math.inf, "north", True):
            with pytest.raises(ValueError, match="yaw_deg"):
                sim.add_drone(position=(1.0, 1.0, 1.0), yaw_deg=bad)
        with pytest.raises(DataFileError, match="vehicle.toml: file not found"):
            sim.add_drone(position=(1.0, 1.0, 1.0), vehicle="no/such/vehicle.toml")
        for bad in (42, [1, 2], object()):
            with pytest.raises(ValueError, match="vehicle: expected a vehicle file path or a Vehicle"):
                sim.add_drone(position=(1.0, 1.0, 1.0), vehicle=bad)
        # under the ground, the drone would be held between it and what stands on it
        with pytest.raises(ValueError, match=r"position: z = -50 m puts the drone's guards below the ground of this level \(0 m\)"):
            sim.add_drone(position=(0.0, 5.0, -50.0))
        # inside a building, it would fall through the building's inside and stay there, unseen
        with pytest.raises(ValueError, match=r"position: expected a place clear of the level's solids, got "
                                             r"\(9, 14, 4\): the drone there overlaps building 'north-1'"):
            sim.add_drone(position=(9.0, 14.0, 4.0))
        sim.run(0.5)  # the world still runs after every refusal (the street's traffic came in at the first frame)
        assert len(sim.drones) == 3 + len(sim.level.traffic)


def test_a_hundred_drones_fly_in_one_world():
    with Simulation(level=None, position=(0.0, 0.0, 100.0)) as sim:
        for i in range(99):
            sim.add_drone(position=(10.0 * (i % 10), 10.0 * (i // 10) + 10.0, 100.0))
        for k, d in enumerate(sim.drones):
            d.pad.rt = (k % 5 + 1) / 5.0
        sim.run(1.0)
        powers = [d.telemetry().motor_power for d in sim.drones]
        for k, p in enumerate(powers):  # MotorPower rises at its rate for as long as RT is held
            assert p == pytest.approx(min(1.0, 0.5 * (k % 5 + 1) / 5.0), abs=0.02)
        heights = [d.telemetry().position[2] for d in sim.drones]
        assert max(abs(h - 100.0) for h in heights) < 0.5  # all hold their altitude
        (ctrl,) = sim.drones[57].components(Controller)
        assert ctrl.motor_power == powers[57]


def test_position_none_takes_the_levels_next_free_spawn_point():
    with Simulation("street") as sim:
        points = sim.level.spawn_points(sim.vehicle.envelope_size_m[2])
        for point, _ in points[1:]:
            d = sim.add_drone()
            assert d.telemetry().position == pytest.approx(point)
        with pytest.raises(ValueError, match="no free spawn point"):
            sim.add_drone()


def test_leaving_a_level_for_the_empty_world_clears_every_drones_contacts():
    with Simulation("street") as sim:
        other = sim.add_drone(position=(3.0, -2.0, 0.0205))
        sim.run(0.2)
        assert sim.telemetry().contact and other.telemetry().contact  # both resting on something
        sim.apply_level(None)
        sim.step()
        for t in (sim.telemetry(), other.telemetry()):
            assert not t.contact and t.height_above_ground is None  # nothing under them any more


def _entity_keyed(obj, depth=0, seen=None):
    """Every dict key and set member reachable from a system's attributes (two levels down)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 2:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        yield from obj.keys()
        for value in obj.values():
            yield from _entity_keyed(value, depth + 1, seen)
    elif isinstance(obj, (set, frozenset)):
        yield from obj
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        for value in vars(obj).values():
            if isinstance(value, (dict, set, frozenset)) or hasattr(value, "__dict__"):
                yield from _entity_keyed(value, depth + 1, seen)


def test_a_removed_drone_leaves_nothing_behind_in_the_systems(make_sim):
    """Drones come and go (traffic, a batch, a swarm script): no system keeps what it knew
    of one after it is removed, or a long session grows without end."""
    sim = make_sim("street")
    removed = []
    for i in range(12):
        d = sim.add_drone(position=(2.0 + i, 0.0, 3.0))
        d.pad.rt = 1.0
        sim.run(0.3)
        if i % 3 == 0:
            sim.pad.press("B")  # an assist under way on the player's drone meanwhile
        sim.remove_drone(d)
        removed.append(d.entity)
        sim.step()
    held = set()
    for systems in sim.app._running.values():  # noqa: SLF001 - every system, the game's and the level's
        for system in systems:
            held |= {key for key in _entity_keyed(system) if isinstance(key, int) and key in removed}
    assert not held, f"systems still hold removed drones {sorted(held)}"
