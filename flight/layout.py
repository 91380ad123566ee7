"""Where each quantity sits in the flat float64 arrays the compiled sub-step reads.

The per-tick flight model and controllers run as numba-compiled functions (see
`flight/dynamics.py`): compiled code wants flat arrays, not Python objects. The components
keep their named fields as views into these arrays, so the rest of the game reads
`body.position` or `rotors.speed_rad_s` as usual; compiled code reads `body[VEL + 2]`.
"""

from __future__ import annotations

# ---- RigidBody.state -----------------------------------------------------------------------
POS = 0  # m, world (3)
VEL = 3  # m/s, world (3)
QUAT = 6  # x, y, z, w; body → world (4)
OMEGA = 10  # rad/s, body (3)
ACC = 13  # m/s², world, last sub-step (3)
PREV_POS = 16  # m, world, before the last sub-step (3)
PREV_QUAT = 19  # attitude before the last sub-step (4)
BODY_SIZE = 23

# ---- Rotors.state --------------------------------------------------------------------------
SPEED = 0  # rad/s, actual (4)
SETPOINT = 4  # rad/s, commanded (4)
THRUST_CMD = 8  # N, asked of the mixer (4)
THRUST = 12  # N, produced (4)
MAX_SPEED = 16  # rad/s, limit at the present loaded voltage
ARMED = 17  # 1.0 armed, 0.0 not
ROTORS_SIZE = 18

# ---- Battery.state -------------------------------------------------------------------------
ENERGY = 0  # J left
CAPACITY = 1  # J at full charge
OCV = 2  # V, open circuit
VOLTAGE = 3  # V, loaded
CURRENT = 4  # A
POWER = 5  # W, last sub-step
DEPLETED = 6  # 1.0 once empty
BATTERY_SIZE = 7

# ---- Vehicle.packed: the vehicle's parameters, SI ------------------------------------------
MASS = 0
GRAVITY = 1
KT = 2  # N/(rad/s)²
RHO0 = 3  # kg/m³
REACTION = 4  # m
TAU_UP = 5  # s
TAU_DOWN = 6  # s
INERTIA = 7  # (3) kg·m²
CDA = 10  # (3) m²
AERO_H = 13  # m
DAMP_LIN = 14
DAMP_QUAD = 15
ROTOR_X = 16  # (4) m
ROTOR_Y = 20  # (4) m
ROTOR_SPIN = 24  # (4) ±1
DISC_AREA = 28  # m²
OCV_A = 29  # V
OCV_B = 30  # V
OCV_C = 31  # V
OCV_N = 32  # exponent
R_INTERNAL = 33  # Ω
V_MIN = 34  # V
ETA_INDUCED = 35
PROFILE_W = 36  # W per motor at PROFILE_SPEED
PROFILE_SPEED = 37  # rad/s
ELECTRONICS_W = 38  # W
MAX_SPEED_REF = 39  # rad/s at V_REF
V_REF = 40  # V
# controller gains (see the vehicle file's [control] entries)
ATT_GAIN = 41  # 1/s
YAW_WEIGHT = 42  # yaw_attitude_gain / attitude_gain, in [0, 1]
RATE_P = 43  # (3) 1/s
RATE_I = 46  # (3) 1/s²
RATE_I_LIMIT = 49  # rad/s²
MAX_RATE = 50  # (3) rad/s
MIX = 53  # (16) allocation inverse, row-major: rotor i = MIX[4 i .. 4 i + 3] · (T, τx, τy, τz)
K_POS = 69  # 1/s
POS_SPEED_LIMIT = 70  # m/s
K_VEL = 71  # 1/s
KI_VEL = 72  # 1/s²
VEL_I_LIMIT = 73  # m/s²
K_VZ = 74  # 1/s
KI_VZ = 75  # 1/s²
VZ_I_LIMIT = 76  # m/s²
K_ALT = 77  # 1/s
BRAKE_DECEL = 78  # m/s²
I_WINDOW = 79  # m/s
MAX_JERK = 80  # m/s³
MAX_YAW_ACC = 81  # rad/s²
TRANSLATION_SHARE = 82  # 1 − thrust reserve
TAN_MAX_TILT = 83
MAX_H_SPEED = 84  # m/s
MAX_V_SPEED = 85  # m/s
OUTER_DIVIDER = 86  # inner ticks per outer-loop update
MAX_YAW_RATE = 87  # rad/s
ANGLE_MAX_TILT = 88  # rad
BATTERY_J = 89  # J at full charge
REF_ACC = 90  # m/s², the cruise reference's planned horizontal acceleration
REF_JERK = 91  # m/s³, how fast the reference's acceleration changes
MOTOR_LEAD = 92  # s, horizon over which a motor speed setpoint is led (0: no lead)
RATE_I_WINDOW = 93  # rad/s, the rate integrators learn only on smaller rate errors
YAW_BRAKE_SHARE = 94  # share of the rotors' largest yaw deceleration a released yaw plans with
YAW_LOCK_RATE = 95  # rad/s, the heading is locked once the yaw rate is below this
V_BRAKE_SHARE = 96  # share of the thrust margin a vertical stop going down plans with
ALT_LINEAR_SPEED = 97  # m/s, the altitude profile is linear below this speed
PACKED_SIZE = 98

# ---- controller state (Controller.loops.state) ----------------------------------------------
RATE_INTEGRAL = 0  # (3) rad/s²
RATE_SP = 3  # (3) rad/s, body, last tick
TORQUE = 6  # (3) N·m, body, last tick
TORQUE_SCALE_RP = 9  # mixer's roll/pitch torque factor, last tick
TORQUE_SCALE_YAW = 10
VEL_INTEGRAL = 11  # (2) m/s²
VZ_INTEGRAL = 13  # m/s²
HEADING = 14  # rad, stabilised and Angle heading setpoint
YAW_RATE_SP = 16  # rad/s after the yaw acceleration limit
LAST_ACC = 17  # (2) m/s², horizontal acceleration setpoint at the last outer update
LAST_ACC_SET = 19
COUNTDOWN = 20  # inner ticks until the next outer update
FORCE = 21  # (3) m/s²: wanted acceleration, + g along Z
Q_SP = 24  # (4) attitude setpoint
VZ_SP = 28  # m/s, last outer update
VEL_REF = 29  # (2) m/s, world: the cruise reference, slewing toward the horizontal setpoint
VEL_REF_SET = 31  # 1.0 once VEL_REF holds a value (0.0: start it from the present velocity)
LINE_POS = 32  # (2) m, world: where the cruise reference is on the travel line
LINE_DIR = 34  # (2) unit vector of the line held
LINE_SET = 36  # 1.0 while a line is held
ACC_REF = 37  # (2) m/s², world: the cruise reference's acceleration
YAW_STOPPING = 39  # 1.0 while a released yaw brakes
YAW_STOP_AT = 40  # rad, the heading the braking is planned to end at
YAW_STOP_DIR = 41  # ±1, the way the drone was turning
YAW_BRAKE = 42  # rad/s², the deceleration the yaw stop plans with
CONTROL_SIZE = 43

# ---- which controller flies (the control kernel's `law` argument) -----------------------------
LAW_STABILISED = 0  # MANUAL STABILISED and the assists
LAW_ANGLE = 1
LAW_ACRO = 2

# ---- laboratory inputs (FlightLoops.lab) ------------------------------------------------------
LAB_ROLL = 0  # stick in [-1, 1]
LAB_PITCH = 1
LAB_YAW = 2  # right = clockwise
LAB_COLLECTIVE = 3  # fraction of four rotors at max speed
LAB_SIZE = 4

# ---- setpoints handed to the stabilised controller each tick --------------------------------
T_VEL = 0  # (3) m/s, world
T_ALT = 3  # m, world
T_HOLD_ALT = 4  # 1.0: hold T_ALT; 0.0: follow T_VEL z
T_YAW_RATE = 5  # rad/s
T_HOLD_POS = 6  # 1.0: hover over T_POS
T_POS = 7  # (2) m, world
T_HOLD_LINE = 9  # 1.0: keep to the line of travel (manual cruise), see stabilised.py
TARGETS_SIZE = 10
