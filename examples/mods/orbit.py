"""A mod that adds a flight mode: ORBIT circles the point the drone was over when it was chosen.

It shows the two seams a mode needs. The mode is registered with the game's mode registry
(`FlightModes.register`), which also puts "Orbit" in the LB / Tab menu; the stabilised
controller flies it, as it flies MANUAL and the assists. The mod's own system, in the ASSIST
stage after the game's manual setpoints, writes the mode's setpoints every frame while the
drone is in it: a velocity along the circle (2 m/s) plus a pull back onto it, at the height
the drone had when the orbit began. The pilot leaves it as any mode: Manual in the menu.

    donify play --mods examples/mods          # then LB / Tab → Orbit
"""

import math

import esper

from components import events
from components.flight import Controller, RigidBody
from engine.stages import Stage
from flight import quat
from systems.manual import ApplyManualSetpoints
from systems.modes import FlightModes, ModeSpec

MODE = "orbit"
RADIUS_M = 3.0
SPEED_M_S = 2.0  # along the circle
PULL_PER_S = 1.0  # radial speed per metre off the circle, 1/s


class FlyOrbit(esper.Processor):
    def __init__(self):
        self.centre = None  # (x, y) m, world
        self.height_m = 0.0

    def on_mode_changed(self, event):
        if event.new == MODE:
            self.centre = None  # set from the drone's position on the next frame

    def process(self, dt):
        for _, (ctrl, body) in esper.get_components(Controller, RigidBody):
            if ctrl.mode != MODE:
                continue
            x, y, z = (float(c) for c in body.position)
            if self.centre is None:
                # start on the circle: the centre is one radius to the drone's left
                yaw = quat.to_euler(body.quaternion)[2]
                self.centre = (x - RADIUS_M * math.sin(yaw), y + RADIUS_M * math.cos(yaw))
                self.height_m = z
            dx, dy = x - self.centre[0], y - self.centre[1]
            r = math.hypot(dx, dy) or 1e-9
            ux, uy = dx / r, dy / r  # outwards
            radial = PULL_PER_S * (RADIUS_M - r)
            ctrl.hold_position = None
            ctrl.hold_altitude = True
            ctrl.target_altitude = self.height_m
            ctrl.target_yaw_rate = 0.0
            # counter-clockwise seen from above: the tangent is the outward unit turned left
            ctrl.target_velocity[:] = (-uy * SPEED_M_S + ux * radial, ux * SPEED_M_S + uy * radial, 0.0)


class Orbit:
    name = "orbit"

    def build(self, app):
        app.resource(FlightModes).register(ModeSpec(MODE, "Orbit"))
        self.system = FlyOrbit()
        app.add_system(self.system, Stage.ASSIST, after=ApplyManualSetpoints)
        app.on(events.ModeChanged, self.system.on_mode_changed)


plugin = Orbit()
