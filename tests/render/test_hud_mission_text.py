"""The HUD's mission line: the waypoint and the distance to it while the mission flies, only
the status once it has arrived (not "wp 4/4 · 11 m" sitting on the pad)."""

from flight.assists import MissionRecord
from game.render import hud_text as T


def test_in_flight_the_mission_line_gives_waypoint_and_distance():
    mission = MissionRecord("transit", 1, 4)
    assert T.mission_text(mission, "en", lambda i: 41.2) == "transit · wp 2/4 · 41 m"
    assert T.mission_text(mission, "fr", lambda i: 7.0) == "transit · wp 2/4 · 7 m"


def test_once_arrived_the_mission_line_is_the_status_alone():
    mission = MissionRecord("arrived", 3, 4)
    assert T.mission_text(mission, "en", lambda i: 11.0) == "arrived"
    assert T.mission_text(mission, "fr", lambda i: 11.0) == "arrivée"


def test_an_interrupted_mission_still_says_where_it_was_going():
    mission = MissionRecord("interrupted", 2, 4, "obstacle crane")
    assert T.mission_text(mission, "en", lambda i: 9.6) == "interrupted · wp 3/4 · 10 m"


def test_idle_shows_no_distance():
    assert T.mission_text(MissionRecord(), "en", lambda i: 3.0) == "idle"
