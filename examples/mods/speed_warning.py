"""A HUD message when the drone goes faster than 6 m/s (the README's example mod).

One system in the GAMEPLAY stage (once per frame, after the physics): it reads the drone's
RigidBody and emits a `Message` event (components/events.py), which the window shows on the HUD. It says so once each
time the speed rises above the threshold, not every frame while it stays there.

    donify play --mods examples/mods
"""

import math

import esper

from components import events
from components.flight import RigidBody
from engine.stages import Stage

THRESHOLD_M_S = 6.0


class WarnOnSpeed(esper.Processor):  # one verb, one query
    def __init__(self, app):
        self.app = app
        self.warned = False

    def process(self, dt):
        for _, body in esper.get_component(RigidBody):
            fast = math.hypot(*body.velocity) > THRESHOLD_M_S
            if fast and not self.warned:
                self.app.emit(events.Message(f"faster than {THRESHOLD_M_S:g} m/s!"))
            self.warned = fast


class SpeedWarning:
    name = "speed-warning"

    def build(self, app):
        app.add_system(WarnOnSpeed(app), Stage.GAMEPLAY)


plugin = SpeedWarning()
