"""A physics mod: the drone on a tether, 6 m of line from the point it starts at.

While the line is slack nothing happens; stretched, it pulls the drone back towards the
anchor like a stiff spring with some damping (a nylon line: 0.5 N per metre of stretch,
0.1 N per m/s of the speed at which it stretches). The stabilised controller fights it, so
the drone ends up hovering at the end of its line, leaning away from the anchor, however
hard it is asked to cruise.

How the force gets in — honestly: the flight model has no seam for an outside force yet
(the dynamics integrate thrust, drag and gravity in one compiled sub-step). So this mod runs
in the DYNAMICS stage, once per 1/240 s tick, *after* the game's own integration (a mod's
systems run after the game's in the same stage), and adds the tether's impulse to the
velocity: Δv = F / m · dt. The position picks it up from the next tick on (one tick,
4 ms, late), and the acceleration the dynamics report does not include it. Good enough for
a toy; a planned external-force component will make it exact.

    donify fly --mods examples/mods --script examples/street_manual.toml
"""

import math

import esper

from components.flight import Airframe, RigidBody
from engine.stages import Stage
from game.scene import SceneConfig

LENGTH_M = 6.0
STIFFNESS_N_M = 0.5  # N per metre of stretch
DAMPING_N_S_M = 0.1  # N per m/s of stretching speed (only while stretched)


class PullTether(esper.Processor):
    def __init__(self, anchor, length_m):
        self.anchor = tuple(anchor)
        self.length_m = length_m

    def process(self, dt):  # dt: the fixed tick, 1/240 s
        for _, (airframe, body) in esper.get_components(Airframe, RigidBody):
            offset = [p - a for p, a in zip(body.position, self.anchor)]
            distance = math.sqrt(sum(c * c for c in offset))
            stretch = distance - self.length_m
            if stretch <= 0.0:
                continue  # slack
            unit = [c / distance for c in offset]
            outward_speed = sum(v * u for v, u in zip(body.velocity, unit))
            pull_n = STIFFNESS_N_M * stretch + DAMPING_N_S_M * max(outward_speed, 0.0)
            dv = pull_n / airframe.vehicle.mass_kg * dt
            body.velocity[:] = [v - dv * u for v, u in zip(body.velocity, unit)]


class Tether:
    name = "tether"
    length_m = LENGTH_M

    def build(self, app):
        anchor = app.resource(SceneConfig).spawn_position_m  # where the drone starts
        app.add_system(PullTether(anchor, self.length_m), Stage.DYNAMICS)


plugin = Tether()
