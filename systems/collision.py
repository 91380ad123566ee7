"""COLLISION stage: the drone's envelope against the ground plane.

Contacts are resolved here, after the dynamics sub-step, never by an altitude floor inside
the dynamics. The envelope is the vehicle's guard-inclusive box; penetration is removed by
moving the body out along the normal, the normal velocity is reversed with restitution above
a small speed (and zeroed below it, so a resting drone does not jitter), and Coulomb friction
acts on the tangential velocity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import esper

from components.flight import RigidBody
from components.world import Collider
from flight import quat


@dataclass
class GroundPlane:
    """An infinite flat ground at `height_m` (a resource; absent in the lab world)."""

    height_m: float = 0.0
    restitution: float = 0.3
    friction: float = 0.6
    rest_speed_m_s: float = 0.3  # below this an impact does not bounce


def vertical_half_extent(q, size_m) -> float:
    """Half the world-Z extent of a box of `size_m` (full lengths) rotated by q."""
    e = 0.0
    for axis, length in zip(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), size_m):
        e += abs(quat.rotate(q, axis)[2]) * 0.5 * length
    return e


class ResolveGroundContact(esper.Processor):
    def __init__(self, ground: GroundPlane | None, gravity_m_s2: float = 9.80665) -> None:
        self.ground = ground
        self.gravity = gravity_m_s2

    def process(self, dt: float) -> None:
        ground = self.ground
        for _, (body, col) in esper.get_components(RigidBody, Collider):
            if ground is None:
                col.contact = False
                col.height_above_ground_m = None
                continue
            pos, vel = body.position, body.velocity
            extent = vertical_half_extent(body.quaternion, col.size_m)
            bottom = pos[2] - extent
            col.height_above_ground_m = max(0.0, bottom - ground.height_m)
            col.support_height_m = ground.height_m
            if bottom > ground.height_m + 1e-6:
                col.contact = False
                continue
            col.contact = True
            col.contact_normal = (0.0, 0.0, 1.0)
            pos[2] = ground.height_m + extent
            if vel[2] < 0.0:
                speed = -vel[2]
                vel[2] = speed * ground.restitution if speed > ground.rest_speed_m_s else 0.0
                # friction impulse bounded by the normal impulse (plus resting weight)
                dv_normal = speed + vel[2] + self.gravity * dt
            else:
                dv_normal = self.gravity * dt
            vt = math.hypot(vel[0], vel[1])
            if vt > 0.0:
                dv = min(vt, ground.friction * dv_normal)
                vel[0] -= vel[0] / vt * dv
                vel[1] -= vel[1] / vt * dv
            w = body.angular_velocity
            w[0] *= 0.5
            w[1] *= 0.5
