"""A physics mod: the drone on a tether, 6 m of line from the point it starts at.

While the line is slack nothing happens; stretched, it pulls the drone back towards the
anchor like a stiff spring with some damping (a nylon line: 0.5 N per metre of stretch,
0.1 N per m/s of the speed at which it stretches). The stabilised controller fights it, so
the drone ends up hovering at the end of its line, leaning away from the anchor, however
hard it is asked to cruise.

How the force gets in: through the drone's `ExternalWrench` (components/flight.py), the
flight model's seam for outside forces. The dynamics apply it inside the compiled
integration at every sub-step, beside thrust, drag and gravity, so the position, the velocity
and the acceleration they report all include the pull. The wrench keeps its value until
changed, so this mod rewrites the force every 1/240 s tick, from the state the tick starts
in: its system runs in the CONTROL stage (a mod's systems run after the game's own there,
after the controller has flown), just before DYNAMICS integrates the tick. The pull is thus
evaluated exactly as every other force of the model is, at the start of its sub-step.

    donify fly --mods examples/mods --script examples/street_manual.toml
"""

import math

import esper

from components.flight import ExternalWrench, RigidBody
from engine.stages import Stage
from systems.scene import SceneConfig

LENGTH_M = 6.0
STIFFNESS_N_M = 0.5  # N per metre of stretch
DAMPING_N_S_M = 0.1  # N per m/s of stretching speed (only while stretched)


def tether_force_n(position, velocity, anchor, length_m):
    """The line's pull on the drone, world frame, N: zero while slack."""
    offset = [p - a for p, a in zip(position, anchor)]
    distance = math.sqrt(sum(c * c for c in offset))
    stretch = distance - length_m
    if stretch <= 0.0:
        return (0.0, 0.0, 0.0)  # slack
    unit = [c / distance for c in offset]
    outward_speed = sum(v * u for v, u in zip(velocity, unit))
    pull_n = STIFFNESS_N_M * stretch + DAMPING_N_S_M * max(outward_speed, 0.0)
    return tuple(-pull_n * u for u in unit)


class PullTether(esper.Processor):
    def __init__(self, anchor, length_m):
        self.anchor = tuple(anchor)
        self.length_m = length_m

    def process(self, dt):  # dt: the fixed tick, 1/240 s
        for entity, body in esper.get_component(RigidBody):
            wrench = esper.try_component(entity, ExternalWrench)
            if wrench is None:  # the first tick: give the drone its line
                wrench = ExternalWrench(frame="world")
                esper.add_component(entity, wrench)
            wrench.force_n = tether_force_n(body.position, body.velocity, self.anchor, self.length_m)


class Tether:
    name = "tether"
    length_m = LENGTH_M

    def build(self, app):
        anchor = app.resource(SceneConfig).spawn_position_m  # where the drone starts
        app.add_system(PullTether(anchor, self.length_m), Stage.CONTROL)


plugin = Tether()
