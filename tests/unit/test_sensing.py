"""Ground sensing and the swept-envelope query — the pure functions the assists call."""

from __future__ import annotations

import math

import pytest

from flight import quat
from world.geometry import LevelGeometry
from world.level import ActiveLevel, compile_level
from world.level_file import load_level
from world.sensing import TELLO_ENVELOPE_M, lift_clear, overlapping, sense_support, sweep_envelope

STREET = load_level("street")
GEOMETRY = compile_level(STREET)
DECK = STREET.platforms[0]  # centre (68, 14), 8 × 8 m, top 3 m
H = 0.5 * TELLO_ENVELOPE_M[2]


def test_support_over_the_platform_and_beside_it():
    over = sense_support(GEOMETRY, (66.0, 12.0, 10.0))
    beside = sense_support(GEOMETRY, (75.0, 14.0, 10.0))
    assert (over.id, over.kind, over.height_m) == ("deck", "platform", DECK.top_m)
    assert over.distance_m == pytest.approx(10.0 - H - DECK.top_m)
    assert (beside.id, beside.kind, beside.height_m) == ("", "ground", 0.0)
    assert beside.distance_m == pytest.approx(10.0 - H)
    assert over.normal == beside.normal == (0.0, 0.0, 1.0)
    assert over.flat_enough() and beside.flat_enough()


def test_support_of_the_pad_on_the_platform():
    pad = STREET.pad("deck-pad")
    s = sense_support(GEOMETRY, (pad.position[0], pad.position[1], 8.0))
    assert s.id == "deck-pad" and s.kind == "pad" and s.height_m == pytest.approx(pad.top_m)


def test_resting_drone_is_on_its_support():
    s = sense_support(GEOMETRY, (66.0, 12.0, DECK.top_m + H))
    assert s.id == "deck" and s.distance_m == pytest.approx(0.0, abs=1e-12)


def test_over_an_edge_the_coverage_drops_and_landing_is_refused():
    edge_x = DECK.position[0] + DECK.size[0] / 2  # 72 m
    half = sense_support(GEOMETRY, (edge_x, 14.0, 6.0))
    assert half.id == "deck" and half.coverage == pytest.approx(0.5, abs=0.01)
    assert not half.flat_enough()
    pole_top = next(c for c in STREET.cylinders if c.kind == "pole")
    top = sense_support(GEOMETRY, (pole_top.position[0], pole_top.position[1], 10.0))
    # a 16 cm pole top under a 17.5 × 17 cm footprint: about π r² / (w l) ≈ 0.68 of it
    assert top.kind == "pole" and top.coverage == pytest.approx(0.68, abs=0.1) and not top.flat_enough()


def test_tilted_envelope_reaches_lower():
    level = sense_support(GEOMETRY, (5.0, 0.0, 1.0))
    q = quat.from_axis_angle((1.0, 0.0, 0.0), math.radians(25.0))
    tilted = sense_support(GEOMETRY, (5.0, 0.0, 1.0), q)
    reach = 0.5 * (TELLO_ENVELOPE_M[1] * math.sin(math.radians(25)) + TELLO_ENVELOPE_M[2] * math.cos(math.radians(25)))
    assert tilted.distance_m == pytest.approx(1.0 - reach)
    assert tilted.distance_m < level.distance_m


def test_nothing_under_the_drone_in_the_lab_world():
    assert sense_support(LevelGeometry.empty(), (0.0, 0.0, 5.0)) is None
    assert sense_support(GEOMETRY, (5.0, 0.0, 100.0), max_distance_m=10.0) is None


def test_sweep_finds_the_wall_first():
    hit = sweep_envelope(GEOMETRY, (9.0, 0.0, 3.0), (9.0, 30.0, 3.0))
    assert hit.id == "north-1" and hit.kind == "building"
    assert hit.normal == pytest.approx((0.0, -1.0, 0.0))
    assert hit.point[1] == pytest.approx(8.0 - 0.5 * TELLO_ENVELOPE_M[1])
    assert hit.distance_m == pytest.approx(hit.point[1])
    assert hit.fraction == pytest.approx(hit.point[1] / 30.0)


def test_sweep_with_clearance_stops_earlier():
    plain = sweep_envelope(GEOMETRY, (4.0, 0.0, 3.0), (4.0, 30.0, 3.0))
    wide = sweep_envelope(GEOMETRY, (4.0, 0.0, 3.0), (4.0, 30.0, 3.0), clearance_m=1.0)
    assert plain.id == wide.id == "north-1"
    assert plain.distance_m - wide.distance_m == pytest.approx(1.0)


def test_sweep_along_the_street_at_transit_altitude_is_clear():
    assert sweep_envelope(GEOMETRY, (0.0, 0.0, 18.0), (150.0, 0.0, 18.0)) is None


def test_sweep_hits_a_pole_the_ground_and_respects_ignore():
    lamp = next(c for c in STREET.cylinders if c.id == "lamp-n30")
    hit = sweep_envelope(GEOMETRY, (20.0, lamp.position[1], 2.0), (40.0, lamp.position[1], 2.0))
    assert hit.id == "lamp-n30" and hit.normal == pytest.approx((-1.0, 0.0, 0.0))
    down = sweep_envelope(GEOMETRY, (5.0, 0.0, 2.0), (5.0, 0.0, -2.0))
    assert down.id == "" and down.kind == "ground" and down.point[2] == pytest.approx(H)
    assert sweep_envelope(GEOMETRY, (5.0, 0.0, 2.0), (5.0, 0.0, -2.0), ignore=("",)) is None


def test_active_level_swaps_geometry():
    active = ActiveLevel.of(STREET)
    assert active.level is STREET and active.geometry.boxes
    active.swap(None)
    assert active.level is None and active.geometry.ground_z_m is None and active.version == 1


def test_a_path_leaving_or_along_a_nearby_surface_is_clear():
    """Near the ground (within the clearance) a level or climbing path is not blocked by it;
    a path going down into the margin is."""
    low = (5.0, 0.0, H + 0.1)
    assert sweep_envelope(GEOMETRY, low, (5.0, 0.0, 10.0), clearance_m=0.5) is None
    assert sweep_envelope(GEOMETRY, low, (5.0, 2.0, H + 0.1), clearance_m=0.5) is None
    down = sweep_envelope(GEOMETRY, low, (5.0, 0.0, H + 0.05), clearance_m=0.5)
    assert down.kind == "ground" and down.fraction == 0.0
    # beside a wall: moving along it is clear, moving towards it hits at once
    beside = (4.0, 8.0 - 0.08485 - 0.2, 3.0)
    assert sweep_envelope(GEOMETRY, beside, (9.0, beside[1], 3.0), clearance_m=0.5) is None
    toward = sweep_envelope(GEOMETRY, beside, (4.0, 7.9, 3.0), clearance_m=0.5)
    assert toward.id == "north-1" and toward.fraction == 0.0


def test_resting_on_a_top_or_against_a_wall_overlaps_nothing_and_a_millimetre_in_does():
    on_deck = (66.0, 12.0, DECK.top_m + H)
    assert overlapping(GEOMETRY, on_deck) is None
    sunk = overlapping(GEOMETRY, (66.0, 12.0, DECK.top_m + H - 0.002))
    assert (sunk.id, sunk.kind) == ("deck", "platform")
    ground = overlapping(GEOMETRY, (75.0, 14.0, H - 0.002))
    assert (ground.id, ground.kind) == ("", "ground")
    assert overlapping(LevelGeometry.empty(), (0.0, 0.0, -100.0)) is None  # the lab world holds nothing


def test_lift_clear_climbs_the_deck_then_the_pad_on_it():
    pad = STREET.pad("deck-pad")
    inside_deck = (pad.position[0], pad.position[1], DECK.top_m - 1.0)
    # out of the deck, into the pad standing on it, out of that: onto the pad's top
    assert lift_clear(GEOMETRY, inside_deck) == pytest.approx(pad.top_m + H)
    assert lift_clear(GEOMETRY, inside_deck, max_lifts=1) is None  # one top is not enough here
    assert lift_clear(GEOMETRY, (75.0, 14.0, 5.0)) == 5.0  # in the open: where it is
    tilted = quat.from_axis_angle((1.0, 0.0, 0.0), math.radians(30.0))
    lifted = lift_clear(GEOMETRY, (66.0, 12.0, DECK.top_m), tilted)
    assert lifted > DECK.top_m + H  # a tilted envelope reaches lower: lifted further
    assert overlapping(GEOMETRY, (66.0, 12.0, lifted), tilted) is None
