"""The stabilised velocity and altitude controller of MANUAL STABILISED (MODEL §6).

Setpoints go velocity → acceleration → attitude → rates → torques → rotor thrusts:

* horizontal: a = Kv (v_sp − v) + ∫ Ki (v_sp − v) + drag feed-forward at v_sp (still air);
  the bounded integrator cancels a constant wind;
* vertical: with an altitude target, a square-root braking profile gives the vertical speed
  setpoint (constant planned deceleration, linear near the target), limited to ±3 m/s
  separately from the horizontal 8 m/s; a velocity target is used as is;
* the thrust vector m (a_xy, a_z + g) sets the attitude (tilt ≤ 25°) and the collective.
  Under thrust saturation the vertical part is served first, then the horizontal one: the
  drone keeps its altitude and attitude before its horizontal speed.

The controller reads the exact world state (no sensor model, MODEL §6).
"""

from __future__ import annotations

import math

from components.flight import RigidBody
from flight import quat
from flight.control.cascade import Cascade
from flight.vehicle import Vehicle


def attitude_from_thrust_direction(fx: float, fy: float, fz: float, yaw_rad: float):
    """Quaternion whose body Z points along f and whose heading is yaw_rad."""
    n = math.sqrt(fx * fx + fy * fy + fz * fz)
    zx, zy, zz = fx / n, fy / n, fz / n
    cx, cy = math.cos(yaw_rad), math.sin(yaw_rad)
    # y_b = z × x_c, x_b = y_b × z
    yx, yy, yz = zy * 0.0 - zz * cy, zz * cx - zx * 0.0, zx * cy - zy * cx
    ny = math.sqrt(yx * yx + yy * yy + yz * yz)
    yx, yy, yz = yx / ny, yy / ny, yz / ny
    xx, xy, xz = yy * zz - yz * zy, yz * zx - yx * zz, yx * zy - yy * zx
    # rotation matrix columns (x_b, y_b, z_b) → quaternion
    m00, m01, m02 = xx, yx, zx
    m10, m11, m12 = xy, yy, zy
    m20, m21, m22 = xz, yz, zz
    tr = m00 + m11 + m22
    if tr > 0.0:
        s = math.sqrt(tr + 1.0) * 2.0
        return ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    if m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2.0
        return (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    if m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2.0
        return ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    s = math.sqrt(1.0 + m22 - m00 - m11) * 2.0
    return ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)


class StabilisedController:
    """Velocity/altitude → rotor thrusts. Loop state: integrators and the heading setpoint."""

    def __init__(self, vehicle: Vehicle, cascade: Cascade) -> None:
        self.vehicle = vehicle
        self.cascade = cascade
        self.integral_xy = [0.0, 0.0]  # m/s²
        self.integral_z = 0.0  # m/s²
        self.heading_rad: float | None = None
        self.vertical_speed_sp = 0.0  # m/s, last update
        self.acceleration_sp = (0.0, 0.0, 0.0)  # m/s², last update
        self._last_a_xy: tuple[float, float] | None = None  # m/s², for the jerk limit
        self.yaw_rate_sp = 0.0  # rad/s, after the yaw acceleration limit

    def reset(self, body: RigidBody | None = None) -> None:
        self.integral_xy = [0.0, 0.0]
        self.integral_z = 0.0
        self._last_a_xy = None
        self.yaw_rate_sp = 0.0
        self.cascade.reset()
        self.heading_rad = quat.to_euler(body.quaternion)[2] if body is not None else None

    def vertical_speed_for(self, altitude_error_m: float) -> float:
        """Square-root braking profile toward an altitude target, limited to ±max vertical."""
        c = self.vehicle.control
        e = altitude_error_m
        decel = c["vertical_brake_decel"]
        k = c["altitude_gain"]
        # linear near the target, constant deceleration further away (continuous at e = v/k)
        linear_limit = decel / (k * k)
        if abs(e) <= linear_limit:
            v = k * e
        else:
            v = math.copysign(math.sqrt(2.0 * decel * (abs(e) - 0.5 * linear_limit)), e)
        vmax = self.vehicle.max_vertical_speed_m_s
        return max(-vmax, min(vmax, v))

    def update(self, body: RigidBody, target_velocity, target_altitude: float | None,
               yaw_rate: float, density_kg_m3: float, max_thrust_n: float, dt_s: float,
               hold_position=None) -> list[float]:
        """Rotor thrusts (N) for a world velocity setpoint and an optional altitude target.

        Args:
            target_velocity: (vx, vy, vz) world m/s; vz is used when target_altitude is None.
            target_altitude: world altitude to hold, m, or None to follow vz.
            hold_position: (x, y) world m to hover over, added to the horizontal setpoint
                through a proportional position loop, or None.
            yaw_rate: heading rate setpoint, rad/s, counter-clockwise positive.
            max_thrust_n: per-rotor thrust available now (voltage-limited).
        """
        v = self.vehicle
        c = v.control
        if self.heading_rad is None:
            self.reset(body)
        # the heading setpoint turns with a limited yaw acceleration: the little yaw torque
        # the rotors have can follow it, so a turn neither overshoots nor disturbs the tilt
        step = c["max_yaw_acceleration"] * dt_s
        yaw_rate = self.yaw_rate_sp + max(-step, min(step, yaw_rate - self.yaw_rate_sp))
        self.yaw_rate_sp = yaw_rate
        self.heading_rad = math.remainder(self.heading_rad + yaw_rate * dt_s, math.tau)
        vel = body.velocity
        pos = body.position
        m = v.mass_kg
        g = v.gravity_m_s2

        # horizontal velocity setpoint limited on its own (a climb never reduces it)
        sx, sy = target_velocity[0], target_velocity[1]
        if hold_position is not None:
            kp = c["position_gain"]
            px, py = kp * (hold_position[0] - pos[0]), kp * (hold_position[1] - pos[1])
            pn = math.hypot(px, py)
            limit = c["position_speed_limit"]
            if pn > limit:
                px, py = px * limit / pn, py * limit / pn
            sx, sy = sx + px, sy + py
        sn = math.hypot(sx, sy)
        if sn > v.max_horizontal_speed_m_s:
            sx, sy = sx * v.max_horizontal_speed_m_s / sn, sy * v.max_horizontal_speed_m_s / sn
            sn = v.max_horizontal_speed_m_s
        # vertical setpoint, limited separately
        if target_altitude is not None:
            vz_sp = self.vertical_speed_for(target_altitude - pos[2])
        else:
            vmax = v.max_vertical_speed_m_s
            vz_sp = max(-vmax, min(vmax, target_velocity[2]))
        self.vertical_speed_sp = vz_sp

        # vertical acceleration (served first), with drag feed-forward at the setpoint
        ez = vz_sp - vel[2]
        lim_z = c["vertical_velocity_i_limit"]
        az = c["vertical_velocity_gain"] * ez + self.integral_z \
            + 0.5 * density_kg_m3 * abs(vz_sp) * v.drag_area_m2[2] * vz_sp / m
        # horizontal acceleration with drag feed-forward at the setpoint (still air)
        ex, ey = sx - vel[0], sy - vel[1]
        drag_ff = 0.5 * density_kg_m3 * sn * v.drag_area_m2[0] / m
        ax = c["velocity_gain"] * ex + self.integral_xy[0] + drag_ff * sx
        ay = c["velocity_gain"] * ey + self.integral_xy[1] + drag_ff * sy

        # thrust available for translation
        total_max = 4.0 * max_thrust_n * (1.0 - c["thrust_reserve"])
        a_total_max = total_max / m
        fz = az + g
        fz_max = a_total_max  # what thrust can do straight up
        z_saturated = fz > fz_max or fz < 0.0
        fz = min(max(fz, 0.05 * g), fz_max) if fz_max > 0.05 * g else fz_max
        # tilt limit and remaining thrust bound the horizontal acceleration
        a_h = math.hypot(ax, ay)
        a_h_max = fz * math.tan(v.max_tilt_rad)
        room = a_total_max * a_total_max - fz * fz
        a_h_max = min(a_h_max, math.sqrt(room) if room > 0.0 else 0.0)
        xy_saturated = a_h > a_h_max
        if xy_saturated:
            scale = a_h_max / a_h
            ax, ay = ax * scale, ay * scale
        # jerk limit: the tilt setpoint moves smoothly, so the attitude never overshoots 25°
        last = self._last_a_xy
        if last is not None:
            dax, day = ax - last[0], ay - last[1]
            step = math.hypot(dax, day)
            max_step = c["max_jerk"] * dt_s
            if step > max_step:
                ax, ay = last[0] + dax * max_step / step, last[1] + day * max_step / step
                xy_saturated = True
        self._last_a_xy = (ax, ay)

        # The integrators are for steady disturbances (wind, a sagging battery): they learn
        # only near the setpoint and while the output is not saturated, so accelerating or
        # braking never winds them up.
        window = c["integrator_window"]
        if abs(ez) < window and (not z_saturated or self.integral_z * ez < 0.0):
            self.integral_z = max(-lim_z, min(lim_z, self.integral_z + c["vertical_velocity_i"] * ez * dt_s))
        if not xy_saturated and ex * ex + ey * ey < window * window:
            lim = c["velocity_i_limit"]
            ki = c["velocity_i"] * dt_s
            ix, iy = self.integral_xy[0] + ki * ex, self.integral_xy[1] + ki * ey
            n = math.hypot(ix, iy)
            if n > lim:
                ix, iy = ix * lim / n, iy * lim / n
            self.integral_xy = [ix, iy]

        self.acceleration_sp = (ax, ay, fz - g)
        if fz <= 0.0:
            return self.cascade.from_attitude(body, body.quaternion, 0.0, max_thrust_n, dt_s)
        q_sp = attitude_from_thrust_direction(ax, ay, fz, self.heading_rad)
        # collective along the present body Z: no extra lift while the attitude catches up
        bz = quat.rotate(body.quaternion, (0.0, 0.0, 1.0))
        f_along = (ax * bz[0] + ay * bz[1] + fz * bz[2]) * m
        collective = max(0.0, f_along)
        return self.cascade.from_attitude(body, q_sp, collective, max_thrust_n, dt_s, yaw_rate, about_thrust_axis=True)
