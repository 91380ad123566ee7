"""The player HUD's numbers: compass bearings (north = world +Y, clockwise), the wind's "from"
bearing, minutes of battery left (E / P), the flight clock."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from game.render.readouts import (bearing_deg, clock, compass_point, heading_bearing_deg, minutes_left,
                                  whole_bearing, wind_from_bearing)


def test_each_world_axis_has_its_compass_bearing():
    # north = +Y, east = +X, south = −Y, west = −X; clockwise from north
    assert bearing_deg(0.0, 1.0) == 0.0
    assert bearing_deg(1.0, 0.0) == 90.0
    assert bearing_deg(0.0, -1.0) == 180.0
    assert bearing_deg(-1.0, 0.0) == 270.0
    assert [compass_point(b) for b in (0, 45, 90, 135, 180, 225, 270, 315)] == \
        ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def test_the_drones_heading_from_its_yaw():
    # yaw is counter-clockwise from +X: yaw 0 faces east, yaw 90° faces north, yaw −90° south
    assert heading_bearing_deg(0.0) == 90.0
    assert heading_bearing_deg(90.0) == 0.0
    assert heading_bearing_deg(180.0) == 270.0
    assert heading_bearing_deg(-90.0) == 180.0
    assert whole_bearing(359.7) == 0  # reads 000°, never 360°


@given(st.floats(-720.0, 720.0, allow_nan=False))
def test_heading_bearing_is_the_bearing_of_the_nose(yaw):
    a = math.radians(yaw)
    nose = (math.cos(a), math.sin(a))  # the body's +X in the world
    b = heading_bearing_deg(yaw)
    assert 0.0 <= b < 360.0
    diff = (b - bearing_deg(*nose) + 180.0) % 360.0 - 180.0
    assert abs(diff) < 1e-6


def test_wind_is_named_from_where_it_blows():
    assert wind_from_bearing(0.0, -3.0) == 0.0  # blowing south: a north wind
    assert wind_from_bearing(-2.0, 0.0) == 90.0  # blowing west: from the east
    assert wind_from_bearing(1.0, 1.0) == 225.0  # blowing north-east: from the south-west


def test_minutes_left_is_energy_over_power():
    # 10 Wh at 20 W: 0.5 h = 30 min
    assert minutes_left(10.0, 20.0) == 30.0
    assert minutes_left(10.0, 0.0) is None  # nothing drawn: no finite figure
    assert minutes_left(0.0, 20.0) == 0.0


@given(st.floats(0.0, 100.0), st.floats(0.1, 500.0))
def test_minutes_left_times_power_gives_back_the_energy(energy_wh, power_w):
    minutes = minutes_left(energy_wh, power_w)
    assert math.isclose(minutes / 60.0 * power_w, energy_wh, rel_tol=1e-9, abs_tol=1e-12)


def test_the_flight_clock():
    assert clock(0.0) == "0:00"
    assert clock(65.9) == "1:05"
    assert clock(3600 + 61) == "1:01:01"


def test_the_weather_line_names_the_wind_by_its_compass_bearing():
    from world.weather import Weather  # noqa: PLC0415

    assert "wind 3.0 m/s from 000°" in Weather(wind_m_s=(0.0, -3.0, 0.0)).describe()  # blowing south
    assert "wind 2.0 m/s from 090°" in Weather(wind_m_s=(-2.0, 0.0, 0.0)).describe()  # blowing west
