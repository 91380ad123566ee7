"""An assist's refusal reaches the HUD once: as its typed event (the HUD words it in its
language), never also as an English `Message` line."""

from __future__ import annotations

from components import events
from components.flight import RigidBody
from game.render import hud_text as T
from game.simulation import Simulation


class Collect:
    def __init__(self) -> None:
        self.events = []

    def on(self, event) -> None:
        self.events.append(event)


def test_a_landing_refused_on_a_roof_edge_is_one_event_and_reads_in_french():
    collect = Collect()
    with Simulation("street") as sim:
        sim.app.on(events.Message, collect.on)
        sim.app.on(events.LandingRefused, collect.on)
        (body,) = sim.components(RigidBody)
        roof = next(b for b in sim.level.boxes if b.yaw_deg == 0 and b.kind == "building")
        # hovering 0.6 m over the roof's east edge: half the drone over it
        body.position[:] = (roof.position[0] + roof.size[0] / 2, roof.position[1],
                            roof.position[2] + roof.size[2] + 0.6)
        sim.step()
        sim.select("land")
        sim.step()
    assert [type(e) for e in collect.events] == [events.LandingRefused]
    reason = collect.events[0].reason
    assert reason.startswith("surface edge")
    french = T.reason(reason, "fr")
    assert french.startswith("bord de surface : seulement") and french != reason


def test_every_reason_the_assists_give_has_a_french_wording():
    for english in ("no surface under the drone", "surface sloped 31° (at most 15°)",
                    "surface edge: only 40% of the drone over it", "this level has no mission route",
                    "obstacle north-1 (box) 3.2 m ahead", "arrival pad: no surface under the drone",
                    "landed on deck, not the arrival pad"):
        assert T.reason(english, "fr") != english, english
        assert T.reason(english, "en") == english
