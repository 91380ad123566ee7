"""The HUD's mission line: the waypoint and the distance to it while the mission flies, only
the status once it has arrived (not "wp 4/4 · 11 m" sitting on the pad)."""

from game.render import hud_text as T


def test_in_flight_the_mission_line_gives_waypoint_and_distance():
    mission = {"status": "transit", "waypoint_index": 1, "waypoints": 4}
    assert T.mission_text(mission, "en", distance_to=lambda i: 41.2) == "transit · wp 2/4 · 41 m"
    assert T.mission_text(dict(mission, distance_m=7.0), "fr") == "transit · wp 2/4 · 7 m"


def test_once_arrived_the_mission_line_is_the_status_alone():
    mission = {"status": "arrived", "waypoint_index": 3, "waypoints": 4}
    assert T.mission_text(mission, "en", 4, lambda i: 11.0) == "arrived"
    assert T.mission_text(dict(mission, distance_m=11.0), "fr") == "arrivée"


def test_an_interrupted_mission_still_says_where_it_was_going():
    mission = {"status": "interrupted", "waypoint_index": 2, "waypoints": 4}
    assert T.mission_text(mission, "en", 0, lambda i: 9.6) == "interrupted · wp 3/4 · 10 m"


def test_idle_shows_no_distance():
    assert T.mission_text({"status": "idle", "waypoint_index": -1}, "en", 4, lambda i: 3.0) == "idle"
