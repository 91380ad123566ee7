"""The Tello's shape, reconstructed at true scale from docs/model.md#what-is-modelled (not a photo, not a CAD file).

Body frame: X forward, Y left, Z up, origin at the centre of mass. What fixes the scale:

- motor axes at (±arm_x, ±arm_y) from the vehicle file (±44.5 mm, ±41.75 mm);
- 3-inch two-blade propellers (76.2 mm diameter), spinning ±Z by the vehicle's `spin`;
- the 98 × 92.5 mm black frame: four arms ending in motor pods at the motor axes, its outer
  edge at the pods' outer side;
- a white shell smaller than the frame (68 × 58 mm), the front camera on its nose;
- four guards around the discs, sized so that the outer edge matches the collision envelope
  with guards (175.2 × 169.7 mm) and the height matches the envelope (41 mm).

Dimensions not in docs/model.md#what-is-modelled (shell size, pod radius, guard band height) are reconstructions,
named below with their values in metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.render import transforms as tf
from game.render.mesh import MeshBuilder, rounded_rectangle

SHELL_WHITE = (0.95, 0.95, 0.94)
FRAME_BLACK = (0.07, 0.07, 0.08)
MOTOR_GREY = (0.45, 0.46, 0.48)
GUARD_GREY = (0.55, 0.57, 0.60)
PROP_GREY = (0.30, 0.32, 0.35)  # darker than the blur disc, so a turning blade reads against it
BLUR_GREY = (0.78, 0.80, 0.83)
LENS_BLUE = (0.10, 0.16, 0.30)

FRAME_SIZE_M = (0.098, 0.0925)  # body footprint, docs/model.md#what-is-modelled
SHELL_SIZE_M = (0.068, 0.058)  # reconstruction: smaller than the frame
SHELL_CORNER_RADIUS_M = 0.013
SHELL_CHAMFER_M = 0.006  # top edge bevel
MOTOR_POD_RADIUS_M = 0.005  # the frame's pod around each 8.5 mm motor
MOTOR_CAN_RADIUS_M = 0.00425
GUARD_BAND_M = 0.0026  # guard ring wall thickness
PROP_HUB_RADIUS_M = 0.0045
PROP_ROOT_CHORD_M = 0.011
PROP_TIP_CHORD_M = 0.006
PROP_PITCH_DEG = 14.0  # blade twist at mid span, for a readable blade
CAMERA_LENS_RADIUS_M = 0.0045


@dataclass
class DroneModel:
    """Meshes in the body frame and where the moving parts go."""

    body: MeshBuilder  # frame, shell, guards, motors, camera: drawn with the body's pose
    prop: MeshBuilder  # one two-blade propeller with its hub, centred on its axis at z = 0
    blur: MeshBuilder  # the motion-blur disc swept by a propeller, at z = 0
    prop_centres_m: tuple[tuple[float, float, float], ...]  # body frame, motor order 0 FR, 1 RR, 2 RL, 3 FL
    spin: tuple[float, float, float, float]  # +1 counter-clockwise seen from above
    camera_position_m: tuple[float, float, float]  # the front camera's optical centre, body frame
    envelope_m: tuple[float, float, float]
    shell_colour: tuple[float, float, float] = SHELL_WHITE
    far_body: MeshBuilder | None = None  # the body with few vertices, for a drone a few pixels wide


def build_drone(vehicle) -> DroneModel:
    """The procedural Tello for a `flight.vehicle.Vehicle` (motor axes, props, envelope)."""
    ex, ey, ez = vehicle.envelope_size_m
    bottom, top = -ez / 2.0, ez / 2.0
    prop_radius = vehicle.prop_diameter_m / 2.0
    centres = [(r.x_m, r.y_m) for r in vehicle.rotors]
    arm_x = max(abs(x) for x, _ in centres)
    arm_y = max(abs(y) for _, y in centres)
    guard_outer = min((ex / 2.0 - arm_x), (ey / 2.0 - arm_y))
    guard_inner = guard_outer - GUARD_BAND_M
    prop_z = top - 0.0085  # blades sit inside the guard band, below the shell's top
    body = MeshBuilder()

    # black frame: lower body (battery bay), four arms, pods at the motor axes
    lower = rounded_rectangle(SHELL_SIZE_M[0] - 0.004, SHELL_SIZE_M[1] - 0.004, SHELL_CORNER_RADIUS_M)
    body.slab(lower * 0.94, lower, bottom, bottom + 0.013, FRAME_BLACK)
    arm_z0, arm_z1 = bottom + 0.008, bottom + 0.015
    for x, y in centres:
        length = math.hypot(x, y)
        yaw = math.atan2(y, x)
        body.box((x / 2.0, y / 2.0, (arm_z0 + arm_z1) / 2.0), (length, 0.012, arm_z1 - arm_z0), FRAME_BLACK, yaw)
        body.cylinder((x, y), MOTOR_POD_RADIUS_M, bottom + 0.004, prop_z - 0.006, FRAME_BLACK, segments=10)
        body.cylinder((x, y), MOTOR_CAN_RADIUS_M, prop_z - 0.006, prop_z - 0.0015, MOTOR_GREY, segments=10)
        # guard: a ring around the disc held by two struts from the pod
        body.tube((x, y), guard_inner, guard_outer, prop_z - 0.007, prop_z + 0.0045, GUARD_GREY, segments=20)
        for side in (-1.0, 1.0):
            a = yaw + side * math.radians(55.0)
            mid = guard_inner / 2.0
            body.box((x + mid * math.cos(a), y + mid * math.sin(a), prop_z - 0.0055), (guard_inner, 0.0025, 0.003),
                     GUARD_GREY, a)
    # outer rim of the frame between the pods, so the frame reads 98 × 92.5 mm from above
    fx, fy = FRAME_SIZE_M[0] / 2.0, FRAME_SIZE_M[1] / 2.0
    rim_z = (arm_z0 + arm_z1) / 2.0
    body.box((fx - 0.003, 0.0, rim_z), (0.006, 2.0 * arm_y - 0.006, 0.006), FRAME_BLACK)
    body.box((-fx + 0.003, 0.0, rim_z), (0.006, 2.0 * arm_y - 0.006, 0.006), FRAME_BLACK)
    body.box((0.0, fy - 0.003, rim_z), (2.0 * arm_x - 0.006, 0.006, 0.006), FRAME_BLACK)
    body.box((0.0, -fy + 0.003, rim_z), (2.0 * arm_x - 0.006, 0.006, 0.006), FRAME_BLACK)

    # white shell, smaller than the frame, with a bevelled top
    shell = rounded_rectangle(SHELL_SIZE_M[0], SHELL_SIZE_M[1], SHELL_CORNER_RADIUS_M)
    inset = rounded_rectangle(SHELL_SIZE_M[0] - 2 * SHELL_CHAMFER_M, SHELL_SIZE_M[1] - 2 * SHELL_CHAMFER_M,
                              SHELL_CORNER_RADIUS_M - SHELL_CHAMFER_M / 2)
    shell_z0, shell_z1 = bottom + 0.013, top - SHELL_CHAMFER_M
    body.slab(shell, shell, shell_z0, shell_z1, SHELL_WHITE, caps=(True, False))
    body.slab(shell, inset, shell_z1, top, SHELL_WHITE, caps=(False, True))

    # front camera: a black bezel and a dark lens on the nose, looking along +X
    nose_x = SHELL_SIZE_M[0] / 2.0
    cam_z = shell_z0 + 0.009
    lens = MeshBuilder()
    lens.cylinder((0.0, 0.0), CAMERA_LENS_RADIUS_M + 0.002, -0.002, 0.002, FRAME_BLACK, segments=12)
    lens.cylinder((0.0, 0.0), CAMERA_LENS_RADIUS_M, 0.002, 0.0035, LENS_BLUE, segments=12, caps=(False, True))
    body.extend(lens, tf.translation(nose_x, 0.0, cam_z) @ tf.rotation_y(math.pi / 2.0))

    far = MeshBuilder()  # the same outline, coarse: shell, lower frame, arms, 8-sided guards
    far.box((0.0, 0.0, bottom + 0.0065), (SHELL_SIZE_M[0] - 0.004, SHELL_SIZE_M[1] - 0.004, 0.013), FRAME_BLACK)
    far.box((0.0, 0.0, (shell_z0 + top) / 2.0), (SHELL_SIZE_M[0], SHELL_SIZE_M[1], top - shell_z0), SHELL_WHITE,
            bottom=False)
    for x, y in centres:
        far.box((x / 2.0, y / 2.0, (arm_z0 + arm_z1) / 2.0), (math.hypot(x, y), 0.012, arm_z1 - arm_z0), FRAME_BLACK,
                math.atan2(y, x))
        far.tube((x, y), guard_inner, guard_outer, prop_z - 0.007, prop_z + 0.0045, GUARD_GREY, segments=8)

    return DroneModel(
        body=body,
        prop=_propeller(prop_radius),
        blur=_blur_disc(prop_radius),
        prop_centres_m=tuple((x, y, prop_z) for x, y in centres),
        spin=tuple(float(r.spin) for r in vehicle.rotors),  # type: ignore[arg-type]
        camera_position_m=(nose_x + 0.0035, 0.0, cam_z),
        envelope_m=(ex, ey, ez),
        far_body=far,
    )


def _propeller(radius: float) -> MeshBuilder:
    """Two tapered, pitched blades (flat: they are lit from both sides) and a hub, centred on
    the axis; blade 0 along +X. Few vertices: four of these are placed every frame."""
    prop = MeshBuilder()
    prop.cylinder((0.0, 0.0), PROP_HUB_RADIUS_M, -0.0015, 0.002, MOTOR_GREY, segments=10, caps=(False, True))
    pitch = math.radians(PROP_PITCH_DEG)
    half_root, half_tip = PROP_ROOT_CHORD_M / 2.0, PROP_TIP_CHORD_M / 2.0
    r0 = PROP_HUB_RADIUS_M * 0.8
    # outline of one blade in its own frame: span along +X, chord along Y, counter-clockwise
    outline = np.array(((r0, -half_root * 0.6), (0.55 * radius, -half_root), (radius, -half_tip * 0.7),
                        (radius + 0.001, 0.0), (radius, half_tip), (0.55 * radius, half_root), (r0, half_root * 0.6)))
    for blade in (0.0, math.pi):
        piece = MeshBuilder()
        piece.flat_polygon(outline, 0.0, PROP_GREY)
        prop.extend(piece, tf.rotation_z(blade) @ tf.rotation_x(pitch))
    return prop


def _blur_disc(radius: float) -> MeshBuilder:
    blur = MeshBuilder()
    blur.disc((0.0, 0.0, 0.0), radius, (*BLUR_GREY, 1.0), segments=24)
    return blur
