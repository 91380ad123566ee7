"""Two drones, each its own SDK endpoint (its own loopback address and port), flown together by
the stock DJITelloPy `TelloSwarm`: each takes off, moves and lands on its own."""

from __future__ import annotations

import logging
import math

from djitellopy import Tello, TelloSwarm

from tests.tello.conftest import serving

Tello.LOGGER.setLevel(logging.WARNING)


def test_a_two_drone_swarm_flies():
    with serving("street", drones=2, video=False) as (sim, server):
        first, second = server.endpoints
        # DJITelloPy tells drones apart by their address: 127.0.0.1 and 127.0.0.3
        assert first.address[0] == "127.0.0.1" and second.address[0] == "127.0.0.3"
        swarm = TelloSwarm.fromIps([first.address[0], second.address[0]])
        for tello, endpoint in zip(swarm.tellos, server.endpoints):
            tello.address = endpoint.address
        swarm.connect()
        assert [t.get_battery() for t in swarm.tellos] == [100, 100]
        swarm.takeoff()
        swarm.move_up(30)
        heights = [t.get_height() for t in swarm.tellos]
        swarm.land()
        for endpoint in server.endpoints:
            verbs = [r.verb for r in endpoint.finished]
            assert verbs == ["takeoff", "up", "land"]
            up = endpoint.finished[1]
            assert math.dist(up.end_position, (up.start_position[0], up.start_position[1],
                                               up.start_position[2] + 0.30)) < 0.05
        assert all(150 <= h <= 200 for h in heights), heights
        # two different drones: they started apart and stayed apart
        assert math.dist(first.finished[0].start_position, second.finished[0].start_position) > 0.5
        swarm.end()
