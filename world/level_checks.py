"""Semantic checks of a level: what the types alone cannot say.

Run by `world.level_file.load_level` after the schema validation; each problem is one
located line `FILE:LINE: key.path: expected …, got …`, all reported at once:

- ids are unique (among the solids and pads; among waypoints; among weather presets);
- `spawn_pad`, `mission.arrival_pad` and `default_weather` name things that exist;
- the drone at its spawn (resting on the spawn pad) does not overlap a building or anything;
- every pad stands on something: the ground, a platform or a box top under its centre;
- no waypoint lies inside a solid, and the route — the climb from the spawn pad to the
  transit altitude, each leg between waypoints, the descent onto the arrival pad — is not
  blocked by an obstacle (the envelope swept along it with `ROUTE_CLEARANCE_M` of margin);
- a street has a length, a tree's canopy starts below its top, the fog ends after it starts;
- a tutorial condition's `landed_on` names a pad of the level;
- a course has gates, unique ids, start and finish pads that exist; each gate's opening is
  clear of solids (its two centre lines, over the full width and height), no two gates of a
  course overlap, and each gate is reachable: the envelope swept (with `ROUTE_CLEARANCE_M`)
  from the previous gate's centre — from the start pad for the first, from the last for
  gate 0 of the next lap — to its centre meets no solid;
- traffic ids are unique; `[[spawns]]` and `[[traffic]]` pads exist; each of their start
  places is on the ground's area, stands on something, is clear of solids and is at least
  `SPAWN_SPACING_M` from the spawn pad and every other start place. (A traffic route's script
  is a flight script: the game layer reads it, `game.traffic`.)
"""

from __future__ import annotations

import math

from engine.datafile import TomlSource
from world.geometry import LevelGeometry
from world.course import Gate, end_pad, plane_crossing
from world.level import Course, LandingPad, Level, compile_level
from world.sensing import TELLO_ENVELOPE_M, sweep_envelope
from world.tutorial import parse_condition

ROUTE_CLEARANCE_M = 0.5  # margin around the envelope along the mission route
STAND_TOLERANCE_M = 0.01  # a pad's base this close to a surface stands on it


def semantic_errors(level: Level, source: TomlSource) -> list[str]:
    """Every problem of a schema-valid `level` the types cannot catch, one located line each."""
    errors: list[str] = []

    def err(path: tuple, text: str) -> None:
        errors.append(f"{source.locate(path)}: {'.'.join(str(p) for p in path)}: {text}")

    # -- ids -----------------------------------------------------------------------------
    seen: dict[str, str] = {}
    for section, items in (("boxes", level.boxes), ("cylinders", level.cylinders), ("pads", level.pads),
                           ("platforms", level.platforms)):
        for i, item in enumerate(items):
            if item.id in seen:
                err((section, i, "id"), f"expected a unique id, got {item.id!r} already used by {seen[item.id]}")
            else:
                seen[item.id] = f"{section}[{i}]"
    for section, items in ((("mission", "waypoints"), level.mission.waypoints if level.mission else []),
                           (("weather",), level.weather)):
        ids: set[str] = set()
        for i, item in enumerate(items):
            if item.id in ids:
                err((*section, i, "id"), f"expected a unique id, got {item.id!r} twice")
            ids.add(item.id)
    pad_ids = [p.id for p in level.pads]
    if level.spawn_pad not in pad_ids:
        err(("spawn_pad",), f"expected the id of a pad ({', '.join(pad_ids)}), got {level.spawn_pad!r}")
    if level.mission is not None and level.mission.arrival_pad not in pad_ids:
        err(("mission", "arrival_pad"), f"expected the id of a pad ({', '.join(pad_ids)}), got {level.mission.arrival_pad!r}")
    weather_ids = [w.id for w in level.weather]
    if level.default_weather is not None and level.default_weather not in weather_ids:
        err(("default_weather",), f"expected the id of a weather preset ({', '.join(weather_ids)}), got {level.default_weather!r}")

    # -- shapes --------------------------------------------------------------------------
    if level.street is not None and level.street.length_m <= 0.0:
        err(("street", "end"), f"expected an end different from the start, got {list(level.street.end)}")
    for i, c in enumerate(level.cylinders):
        if c.kind == "tree" and c.canopy_radius > 0.0 and c.canopy_base >= c.height:
            err(("cylinders", i, "canopy_base"), f"expected a canopy base below the tree's height {c.height:g} m, got {c.canopy_base:g}")
        if c.kind != "tree" and c.canopy_radius > 0.0:
            err(("cylinders", i, "canopy_radius"), f"expected no canopy on a {c.kind} (only trees have one), got {c.canopy_radius:g}")
    for i, step in enumerate(level.tutorial.steps if level.tutorial else []):
        for comparison in (c for conj in parse_condition(step.condition).alternatives for c in conj):
            if comparison.field == "landed_on" and comparison.value not in ("", *pad_ids):
                err(("tutorial", "steps", i, "condition"), f"expected landed_on compared with the id of a pad "
                    f"({', '.join(pad_ids)}), got {comparison.value!r}")
    course_ids: set[str] = set()
    for i, course in enumerate(level.courses):
        if course.id in course_ids:
            err(("courses", i, "id"), f"expected a unique id, got {course.id!r} twice")
        course_ids.add(course.id)
        for key in ("start", "finish"):
            pad_id = end_pad(getattr(course, key))
            if pad_id is not None and pad_id not in pad_ids:
                err(("courses", i, key), f"expected \"gate\" or \"pad:<id>\" naming a pad of the level "
                    f"({', '.join(pad_ids)}), got {getattr(course, key)!r}")
        if not course.gates:
            err(("courses", i, "gates"), "expected at least one gate ([[courses.gates]]), got none")
    traffic_ids: set[str] = set()
    for i, car in enumerate(level.traffic):
        if car.id in traffic_ids:
            err(("traffic", i, "id"), f"expected a unique id, got {car.id!r} twice")
        traffic_ids.add(car.id)
    for section, items in (("spawns", level.spawns), ("traffic", level.traffic)):
        for i, place in enumerate(items):
            if place.pad is not None and place.pad not in pad_ids:
                err((section, i, "pad"), f"expected the id of a pad ({', '.join(pad_ids)}), got {place.pad!r}")
    if level.lighting.fog_end <= level.lighting.fog_start:
        err(("lighting", "fog_end"), f"expected more than fog_start {level.lighting.fog_start:g} m, got {level.lighting.fog_end:g}")
    if errors:
        return errors  # the geometric checks below need consistent ids

    # -- geometry ------------------------------------------------------------------------
    geometry = compile_level(level)
    half_z = 0.5 * TELLO_ENVELOPE_M[2]
    spawn = level.spawn
    spawn_index = pad_ids.index(spawn.id)
    at_spawn = level.spawn_position(TELLO_ENVELOPE_M[2])
    hit = sweep_envelope(geometry, at_spawn, at_spawn, size_m=TELLO_ENVELOPE_M, ignore=("", spawn.id))
    if hit is not None:
        err(("pads", spawn_index, "position"),
            f"expected the spawn pad clear of other solids, got the drone at spawn overlapping {hit.kind} {hit.id!r}")

    for i, pad in enumerate(level.pads):
        base = pad.position[2]
        if not _stands(geometry, level, pad, base):
            err(("pads", i, "position"), f"expected the pad's base on the ground ({level.ground.height:g}) "
                                         f"or on a platform or box top under it, got z = {base:g}")

    if level.mission is not None:
        mission = level.mission
        z = mission.transit_altitude
        arrival = level.pad(mission.arrival_pad)
        for i, w in enumerate(mission.waypoints):
            point = (w.position[0], w.position[1], z)
            inside = sweep_envelope(geometry, point, point, size_m=TELLO_ENVELOPE_M)
            if inside is not None:
                err(("mission", "waypoints", i, "position"),
                    f"expected a waypoint in the open at the transit altitude {z:g} m, got one inside {inside.kind} {inside.id!r}")
        if errors:
            return errors
        legs: list[tuple[tuple, tuple, tuple, tuple[str, ...]]] = []
        top = (at_spawn[0], at_spawn[1], z)
        lift_off = (at_spawn[0], at_spawn[1], at_spawn[2] + ROUTE_CLEARANCE_M + 0.01)
        legs.append((("mission", "transit_altitude"), lift_off, top, ()))
        previous = top
        for i, w in enumerate(mission.waypoints):
            point = (w.position[0], w.position[1], z)
            legs.append((("mission", "waypoints", i, "position"), previous, point, ()))
            previous = point
        above_arrival = (arrival.position[0], arrival.position[1], z)
        legs.append((("mission", "arrival_pad"), previous, above_arrival, ()))
        on_arrival = (arrival.position[0], arrival.position[1], arrival.top_m + half_z + ROUTE_CLEARANCE_M + 0.01)
        legs.append((("mission", "arrival_pad"), above_arrival, on_arrival, (arrival.id,)))
        for path, a, b, ignore in legs:
            if math.dist(a, b) == 0.0:
                continue
            hit = sweep_envelope(geometry, a, b, size_m=TELLO_ENVELOPE_M, clearance_m=ROUTE_CLEARANCE_M, ignore=ignore)
            if hit is not None:
                what = "the ground" if hit.id == "" else f"{hit.kind} {hit.id!r}"
                err(path, f"expected a route clear of obstacles at the transit altitude {z:g} m, got the leg "
                          f"({a[0]:g}, {a[1]:g}) → ({b[0]:g}, {b[1]:g}) blocked by {what} at "
                          f"({hit.point[0]:.1f}, {hit.point[1]:.1f}, {hit.point[2]:.1f})")
    for i, course in enumerate(level.courses):
        errors += _course_errors(geometry, level, i, course, source)
    errors += _start_errors(geometry, level, source)
    return errors


SPAWN_SPACING_M = 1.0  # the least distance between two start places (spawns, traffic starts)


def _start_errors(geometry: LevelGeometry, level: Level, source: TomlSource) -> list[str]:
    """The problems of the `[[spawns]]` and the traffic's start places: each on the ground's
    drawn area, standing on something, clear of every solid, and `SPAWN_SPACING_M` from the
    player's spawn pad and from every other start place."""
    errors: list[str] = []

    def err(path: tuple, text: str) -> None:
        errors.append(f"{source.locate(path)}: {'.'.join(str(p) for p in path)}: {text}")

    h = TELLO_ENVELOPE_M[2]
    (gx, gy), (sx, sy) = level.ground.centre, level.ground.size
    taken: list[tuple[tuple[float, float, float], str]] = [(level.spawn_position(h), f"the spawn pad {level.spawn_pad!r}")]
    for section, items in (("spawns", level.spawns), ("traffic", level.traffic)):
        for i, place in enumerate(items):
            key = "pad" if place.pad is not None else "position"
            (x, y, z), _ = level.start_of(place, h)
            if abs(x - gx) > 0.5 * sx or abs(y - gy) > 0.5 * sy:
                err((section, i, key), f"expected a place on the ground's area (x {gx - 0.5 * sx:g} to {gx + 0.5 * sx:g}, "
                                       f"y {gy - 0.5 * sy:g} to {gy + 0.5 * sy:g}), got ({x:g}, {y:g})")
                continue
            if place.pad is None:
                base = z - 0.5 * h
                if not _stands_at(geometry, level, x, y, base):
                    err((section, i, key), f"expected the drone standing on the ground ({level.ground.height:g}) or on a "
                                           f"platform, pad or box top under it, got its base at z = {base:g}")
                    continue
            ignore = ("", place.pad) if place.pad is not None else ("",)
            hit = sweep_envelope(geometry, (x, y, z), (x, y, z), size_m=TELLO_ENVELOPE_M, ignore=ignore)
            if hit is not None:
                err((section, i, key), f"expected a place clear of solids, got the drone there inside {hit.kind} {hit.id!r}")
                continue
            for other, name in taken:
                if math.dist((x, y, z), other) < SPAWN_SPACING_M:
                    err((section, i, key), f"expected a place at least {SPAWN_SPACING_M:g} m from every other start "
                                           f"place, got ({x:g}, {y:g}, {z - 0.5 * h:g}) {math.dist((x, y, z), other):.2f} m "
                                           f"from {name}")
                    break
            taken.append(((x, y, z), f"{section}.{i}"))
    return errors


def _stands_at(geometry: LevelGeometry, level: Level, x: float, y: float, base: float) -> bool:
    """Whether a point at (x, y) with z = `base` rests on the ground or on a solid's top under it."""
    if abs(base - level.ground.height) <= STAND_TOLERANCE_M:
        return True
    boxes, cylinders = geometry.candidates((x, y), (x, y), base + STAND_TOLERANCE_M)
    for b in boxes:
        if abs(b.cz + b.hz - base) <= STAND_TOLERANCE_M:
            dx, dy = x - b.cx, y - b.cy
            if abs(b.c * dx + b.s * dy) <= b.hx and abs(b.c * dy - b.s * dx) <= b.hy:
                return True
    return any(abs(c.z1 - base) <= STAND_TOLERANCE_M and math.hypot(x - c.x, y - c.y) <= c.r for c in cylinders)


def _stands(geometry: LevelGeometry, level: Level, pad: LandingPad, base: float) -> bool:
    """Whether `pad`, its base at z = `base` (m), stands on the ground or on a top under its centre."""
    if abs(base - level.ground.height) <= STAND_TOLERANCE_M:
        return True
    x, y = pad.position[0], pad.position[1]
    # the broad phase first: a loop over every solid for every pad is quadratic in a big level
    boxes, cylinders = geometry.candidates((x, y), (x, y), base + STAND_TOLERANCE_M)
    for b in boxes:
        if b.kind == "pad" and b.id == pad.id:
            continue
        if abs(b.cz + b.hz - base) > STAND_TOLERANCE_M:
            continue
        dx, dy = x - b.cx, y - b.cy
        if abs(b.c * dx + b.s * dy) <= b.hx and abs(b.c * dy - b.s * dx) <= b.hy:
            return True
    for c in cylinders:
        if abs(c.z1 - base) <= STAND_TOLERANCE_M and math.hypot(x - c.x, y - c.y) <= c.r:
            return True
    return False


POINT_M = (1e-3, 1e-3, 1e-3)  # a point's "envelope": the opening itself, not the drone


def _course_errors(geometry: LevelGeometry, level: Level, index: int, course: Course, source: TomlSource) -> list[str]:
    """The geometric problems of course `index`: gates in solids, overlapping, walled in."""
    errors: list[str] = []

    def err(path: tuple, text: str) -> None:
        errors.append(f"{source.locate(path)}: {'.'.join(str(p) for p in path)}: {text}")

    def what(hit) -> str:
        return "the ground" if hit.id == "" else f"{hit.kind} {hit.id!r}"

    gates = [Gate.of(g) for g in course.gates]
    blocked = set()
    for j, gate in enumerate(gates):
        c = gate.centre
        half_a = gate.radius_m if gate.is_ring else 0.5 * gate.width_m
        half_u = gate.radius_m if gate.is_ring else 0.5 * gate.height_m
        for axis, half in ((gate.across, half_a), (gate.up, half_u)):
            a = tuple(c[k] - half * axis[k] for k in range(3))
            b = tuple(c[k] + half * axis[k] for k in range(3))
            hit = sweep_envelope(geometry, a, b, size_m=POINT_M)
            if hit is not None:
                err(("courses", index, "gates", j, "position"),
                    f"expected a gate opening clear of solids, got it crossing {what(hit)} at "
                    f"({hit.point[0]:.1f}, {hit.point[1]:.1f}, {hit.point[2]:.1f})")
                blocked.add(j)
                break
    for j, gate in enumerate(gates):
        for k in range(j):
            if _overlap(gates[k], gate):
                err(("courses", index, "gates", j, "position"),
                    f"expected a gate apart from the others, got one overlapping courses.{index}.gates.{k}")
    if errors:
        return errors
    start_pad = end_pad(course.start) or level.spawn_pad
    pad = level.pad(start_pad)
    lift_off = (pad.position[0], pad.position[1], pad.top_m + 0.5 * TELLO_ENVELOPE_M[2] + ROUTE_CLEARANCE_M + 0.01)
    legs = [(0, lift_off, gates[0].centre, (pad.id,))]
    legs += [(j, gates[j - 1].centre, gates[j].centre, ()) for j in range(1, len(gates))]
    if course.laps > 1 and len(gates) > 1:
        legs.append((0, gates[-1].centre, gates[0].centre, ()))
    for j, a, b, ignore in legs:
        if math.dist(a, b) == 0.0:
            continue
        hit = sweep_envelope(geometry, a, b, size_m=TELLO_ENVELOPE_M, clearance_m=ROUTE_CLEARANCE_M, ignore=ignore)
        if hit is not None:
            origin = "the start pad" if a is lift_off else "the previous gate"
            err(("courses", index, "gates", j, "position"),
                f"expected a gate reachable in a straight line from {origin}, got the way "
                f"({a[0]:g}, {a[1]:g}, {a[2]:g}) → ({b[0]:g}, {b[1]:g}, {b[2]:g}) walled in by {what(hit)} at "
                f"({hit.point[0]:.1f}, {hit.point[1]:.1f}, {hit.point[2]:.1f})")
    return errors


def _overlap(a: Gate, b: Gate) -> bool:
    """Whether two gates' openings meet: an edge of one through the other's opening (either
    way), or the same opening twice."""
    if math.dist(a.centre, b.centre) > a.half_extent_m + b.half_extent_m:
        return False
    for one, other in ((a, b), (b, a)):
        outline = one.corners()
        for p, q in zip(outline, outline[1:] + outline[:1]):
            for s0, s1 in ((p, q), (q, p)):  # either direction through the plane
                crossing = plane_crossing(other, s0, s1)
                if crossing is not None and crossing.inside:
                    return True
        if abs(other.signed_distance(one.centre)) < 1e-6 and other.contains(*other.local(one.centre)):
            return True
    return False
