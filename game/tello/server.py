"""`donify tello`: Donify's drones behind the Tello SDK, for stock DJITelloPy scripts.

Each drone has its own SDK endpoint (a UDP socket). A command datagram is parsed
(game/tello/protocol.py) and run on the simulation's thread — the loop that steps the game at
wall-clock speed (`TelloServer.run`, or the window's frame loop: game/tello/window.py): sockets are
non-blocking and read only there, so nothing touches the game from another thread.

What a drone answers, and when (as a real Tello does, so that DJITelloPy's reply queue — a
FIFO with no matching — never goes out of step):

* a control command answers when it has finished: `takeoff` once the take-off assist hands
  over, `land` once the motors are cut on the ground, a move once the drone is within 5 cm of
  its target (flight/sdk_moves.py), a turn once the heading is reached, a flip once level
  again; a read command at once, in the real format;
* `rc`, `emergency` and `reboot` are never answered (DJITelloPy does not wait for them);
* **one command at a time**: while a command is in progress, any other datagram is dropped
  without a reply, except `stop` (ends it: hover; one `ok` answers both) and `emergency`
  (motors cut; no reply), and `rc` is ignored. The reply owed is sent once, when the command
  finishes; so when DJITelloPy gives up waiting (7 s) and sends the same command again, the
  single reply answers the retry, and nothing arrives late for the next command;
* state at 10 Hz to the client's port 8890 (`port` moves it) from the first `command` on;
* 15 s without a command (`keepalive` counts) the drone lands by itself.
"""

from __future__ import annotations

import errno
import ipaddress
import math
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass, field

import esper

from components.flight import Controller, RigidBody
from components.modes import Mode
from components.sdk import SdkControl
from flight.sdk_moves import heading_of, wrap
from game.tello import protocol
from game.tello.protocol import SILENT, Command, Reading
from systems import sdk_flight

COMMAND_PORT = 8889  # a Tello's
STATE_PORT = 8890  # the client's state port
VIDEO_PORT = 11111  # the client's video port
STATE_PERIOD_S = 0.1  # 10 Hz
IDLE_LANDING_S = 15.0  # without a command, the drone lands
FRAME_S = 1.0 / 60.0  # the headless loop's frame
MAX_FRAME_S = 0.1  # a longer wall-clock gap (a stall) is flown as this much
TOF_RANGE_M = 10.0  # beyond, `tof` reads 6553 (out of range); DJITelloPy documents 30–1000 cm
TEMPERATURE_C = (60, 62)  # templ, temph: not modelled (a warm Tello's)
GRAVITY = 9.80665
DATAGRAM_BYTES = 2048  # read at most this much of one datagram (longer ones are refused)
MOVE_VECTORS = {"up": (0, 0, 1), "down": (0, 0, -1), "left": (0, 1, 0), "right": (0, -1, 0),
                "forward": (1, 0, 0), "back": (-1, 0, 0)}
FIRST_MOTION_M_S = 0.02  # a command's first motion: its velocity changed by this much …
FIRST_MOTION_RAD_S = math.radians(2.0)  # … or its yaw rate by this much
MISSION_PAD_RANGE_M = 3.0  # a pad is seen below the drone up to this height


def drones_of(sim, count: int) -> list:
    """`count` drone handles: the player's drone (`sim.drones[0]`) and new ones
    (`sim.add_drone()`, on the level's free spawn points) — never a drone of the level's
    traffic, which flies its own route."""
    from game.simulation import NoFreeSpawn  # noqa: PLC0415 (loaded already: `sim` is one)

    handles = [sim.drones[0]]
    while len(handles) < count:
        try:
            handles.append(sim.add_drone())
        except NoFreeSpawn:  # said as the command line's limit
            where = "the open world" if sim.level is None else f"level {sim.level.name!r}"
            raise ValueError(f"tello: --drones: expected at most {len(handles)} in {where} (one on each of its "
                             f"start places), got {count}") from None
    return handles


def addresses(host: str, port: int, count: int) -> list[tuple[str, int]]:
    """Where each drone listens. One drone: (host, port). More: drone i (from 0) at the address
    host + i + 1 for i ≥ 1 (host + 1 is left out: the network-namespace recipe gives it to the
    host side), e.g. 192.168.10.1, .3, .4 …; on loopback each also gets its own port (port + i)."""
    try:
        first = ipaddress.IPv4Address(host)
    except ValueError:
        raise ValueError(f"tello: --host: expected an IPv4 address such as 127.0.0.1, got {host!r}") from None
    if not 1 <= port <= 65535 - max(0, count - 1):
        raise ValueError(f"tello: --port: expected a UDP port 1–65535, got {port}")
    out = []
    for i in range(count):
        ip = first if i == 0 else first + i + 1
        out.append((str(ip), port + i if first.is_loopback else port))
    return out


@dataclass(frozen=True)
class FinishedCommand:
    """A control command's record, when its reply was sent (for tests and the note's figures)."""

    verb: str
    reply: str
    start_position: tuple  # m, world, when it began
    start_heading: float  # rad
    end_position: tuple  # m, world, when it was answered
    end_heading: float
    latency_s: float | None  # from its arrival to the first motion (its velocity changed by 2 cm/s or its yaw rate by 2°/s)
    duration_s: float  # from its arrival to the reply


@dataclass
class Endpoint:
    """One drone's SDK endpoint and what the SDK knows of it."""

    drone: object  # a Simulation drone handle (entity, telemetry(), select(), components())
    address: tuple[str, int]
    sock: socket.socket
    client: tuple[str, int] | None = None  # who sent the last command
    state_port: int = STATE_PORT
    video_port: int = VIDEO_PORT
    sdk: bool = False  # after `command`: state flows
    pending: str | None = None  # the command in progress, whose reply is owed
    pending_since: float = 0.0
    speed_cm_s: float = 100.0
    last_command: float = 0.0  # wall clock
    next_state: float = 0.0
    motor_time_s: float = 0.0
    takeoff_z: float | None = None
    yaw0: float = 0.0  # the heading at start: `yaw` is measured from it, clockwise
    pads_on: bool = False
    idle_landing: bool = False
    streaming: bool = False
    received: int = 0
    start_position: tuple = (0.0, 0.0, 0.0)  # where the command in progress started
    start_heading: float = 0.0
    start_velocity: tuple = (0.0, 0.0, 0.0)
    start_yaw_rate: float = 0.0
    moved: bool = False  # the command in progress has moved the drone (for the latency)
    latency_s: float = 0.0  # the command in progress's, once it moved
    finished: list = field(default_factory=list)  # FinishedCommand records, the latest last (at most 100)

    @property
    def entity(self) -> int:
        return self.drone.entity


class TelloServer:
    """The SDK endpoints of a Simulation's drones. `poll()` once per frame on the game's
    thread (the window's loop) or `run()` (headless, wall-clock). `video`: start the camera
    streams on `streamon` (else `streamon` answers `error`)."""

    def __init__(self, sim, endpoints: list[tuple[str, int]], *, video: bool = True, window=None,
                 out=None, idle_landing_s: float = IDLE_LANDING_S) -> None:
        self.sim = sim
        self.idle_landing_s = idle_landing_s
        self.app = sim.app
        self.out = out if out is not None else sys.stdout  # read now: a caller may have redirected it
        self.video_wanted = video
        self.window = window
        self.video = None  # game.tello.video.VideoStreams, made on the first streamon
        self.video_problem: str | None = None
        self.endpoints: list[Endpoint] = []
        handles = drones_of(sim, len(endpoints))
        self.app.activate()
        now = time.monotonic()
        try:
            for handle, address in zip(handles, endpoints):
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                try:
                    sock.bind(address)
                except OSError as exc:
                    sock.close()
                    raise OSError(exc.errno, _bind_problem(address, exc)) from None
                sock.setblocking(False)
                sdk_flight.take_sdk_control(handle.entity)
                body = esper.component_for_entity(handle.entity, RigidBody)
                self.endpoints.append(Endpoint(handle, address, sock, last_command=now,
                                               yaw0=heading_of(body.quaternion)))
        except BaseException:
            self.close()
            raise
        self._last_frame = now

    # -- the loop ----------------------------------------------------------------------------
    def run(self, stop: threading.Event | None = None, frame_s: float = FRAME_S) -> None:
        """Step the game at wall-clock speed until `stop` is set (or Ctrl-C), answering the
        SDK between frames; a datagram wakes the loop at once."""
        stop = stop or threading.Event()
        sockets = [e.sock for e in self.endpoints]
        next_frame = time.monotonic()
        while not stop.is_set():
            now = time.monotonic()
            if now >= next_frame:
                self.frame()
                next_frame = max(next_frame + frame_s, time.monotonic())
                continue
            ready, _, _ = select.select(sockets, [], [], next_frame - now)
            if ready:
                self.receive()

    def frame(self) -> None:
        """One frame: read the datagrams, step the game by the wall-clock time since the last
        frame, then the replies that are due, the state, the video."""
        self.receive()
        now = time.monotonic()
        dt = min(max(now - self._last_frame, 1e-4), MAX_FRAME_S)
        self._last_frame = now
        self.sim.step(dt)
        self.after_step(dt)

    def receive(self) -> None:
        """Read and run every datagram waiting (on the game's thread). A loop that steps the
        game itself (the window) calls this, steps, then `after_step(dt)`."""
        self.app.activate()
        for endpoint in self.endpoints:
            for _ in range(64):  # at most this many a frame per drone: a flood cannot stall the game
                try:
                    data, sender = endpoint.sock.recvfrom(DATAGRAM_BYTES)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:  # an ICMP error from a vanished client: nothing to read
                    break
                self.handle(endpoint, data, sender)

    def after_step(self, dt: float) -> None:
        self.app.activate()
        now = time.monotonic()
        for endpoint in self.endpoints:
            self._progress(endpoint, now, dt)
            if endpoint.sdk and endpoint.client is not None and now >= endpoint.next_state:
                endpoint.next_state += STATE_PERIOD_S
                if endpoint.next_state < now:  # late (a slow frame): the next one a period from now, no burst
                    endpoint.next_state = now + STATE_PERIOD_S
                self._send(endpoint, protocol.state_line(self.reading(endpoint)),
                           (endpoint.client[0], endpoint.state_port))
        if self.video is not None:
            self.video.pump()

    # -- commands ------------------------------------------------------------------------------
    def handle(self, endpoint: Endpoint, data: bytes, sender: tuple[str, int]) -> None:
        """Run one datagram (never raises: a bad one gets the real drone's error reply)."""
        endpoint.received += 1
        parsed = protocol.parse(data)
        if parsed == SILENT:
            return
        busy = endpoint.pending is not None
        if isinstance(parsed, str):
            if not busy:
                endpoint.client = sender
                self._send(endpoint, parsed, sender)
            return
        verb = parsed.verb
        if busy and verb not in ("stop", "emergency", "rc"):
            return  # one command at a time: the reply owed is the one in progress's
        endpoint.client = sender
        endpoint.last_command = time.monotonic()
        try:
            reply = self._run(endpoint, parsed)
        except Exception as exc:  # noqa: BLE001 (a command must never stop the game)
            print(f"donify tello: drone {self._name(endpoint)}: {parsed.verb}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            reply = "error"
        if reply:
            self._send(endpoint, reply, sender)

    def _run(self, endpoint: Endpoint, command: Command) -> str:
        """The reply now, or "" when it comes later (or never)."""
        verb, args = command.verb, command.args
        entity = endpoint.entity
        ctrl = esper.component_for_entity(entity, Controller)
        flying = sdk_flight.flying(ctrl)
        if verb == "rc":
            if flying and endpoint.pending is None:
                sdk_flight.set_rc(entity, args)
            return ""
        if verb == "emergency":
            endpoint.pending = None
            sdk_flight.emergency(self.app, entity)
            return ""
        if verb == "stop":
            endpoint.pending = None
            if flying:
                sdk_flight.stop(entity)
            return "ok"
        if verb == "reboot":
            endpoint.pending = None
            self._stop_video(endpoint)
            endpoint.drone.reset()
            endpoint.sdk = False
            return ""
        if verb == "command":
            endpoint.sdk = True
            endpoint.next_state = time.monotonic()
            return "ok"
        if verb.endswith("?"):
            return protocol.read_reply(verb, self.reading(endpoint))
        if verb == "takeoff":
            if ctrl.motor_power > 0.0:
                return "error"
            body = esper.component_for_entity(entity, RigidBody)
            z = float(body.position[2])
            endpoint.drone.select("takeoff")
            if ctrl.mode != Mode.TAKEOFF:
                return "error"  # refused (nothing under the drone)
            endpoint.takeoff_z = z
            return self._begin(endpoint, verb)
        if verb == "land":
            if ctrl.motor_power <= 0.0:
                return "error Motor stop"
            if ctrl.mode == Mode.LANDING:
                return self._begin(endpoint, verb)
            endpoint.drone.select("land")
            return self._begin(endpoint, verb) if ctrl.mode == Mode.LANDING else "error"
        if verb in protocol.MOVES or verb in ("go", "curve", "cw", "ccw", "flip"):
            if ctrl.motor_power <= 0.0:
                return "error Motor stop"
            if not flying:
                return "error"
            if command.pad:
                return self._start_from_pad(endpoint, command)
            return self._start_flight(endpoint, command)
        if verb == "speed":
            endpoint.speed_cm_s = float(args[0])
            return "ok"
        if verb == "streamon":
            return self._start_video(endpoint)
        if verb == "streamoff":
            self._stop_video(endpoint)
            return "ok"
        if verb == "port":
            endpoint.state_port, endpoint.video_port = args
            return "ok"
        if verb == "mon":
            endpoint.pads_on = True
            return "ok"
        if verb == "moff":
            endpoint.pads_on = False
            return "ok"
        if verb in ("jump", "throwfly"):
            return "error"  # not modelled
        return "ok"  # keepalive, motoron/off, mdirection, wifi, ap, setfps, setbitrate, setresolution, downvision

    def _start_flight(self, endpoint: Endpoint, command: Command) -> str:
        verb, args, entity = command.verb, command.args, endpoint.entity
        speed = endpoint.speed_cm_s / 100.0
        if verb in protocol.MOVES:
            offset = tuple(c * args[0] / 100.0 for c in MOVE_VECTORS[verb])
            sdk_flight.start_move(entity, offset, speed)
        elif verb == "go":
            x, y, z, cm_s = args
            sdk_flight.start_move(entity, (x / 100.0, y / 100.0, z / 100.0), cm_s / 100.0)
        elif verb == "curve":
            refused = sdk_flight.start_curve(entity, tuple(a / 100.0 for a in args[:3]),
                                             tuple(a / 100.0 for a in args[3:6]), args[6] / 100.0)
            if refused:
                return refused
        elif verb in ("cw", "ccw"):
            sdk_flight.start_turn(entity, math.radians(args[0]) * (-1.0 if verb == "cw" else 1.0))
        else:
            refused = sdk_flight.start_flip(entity, args[0])
            if refused:
                return refused
        return self._begin(endpoint, verb)

    def _start_from_pad(self, endpoint: Endpoint, command: Command) -> str:
        """`go x y z speed mN` / `curve … mN`: the points in the frame of pad N, seen below the
        drone now (m-1, m-2: whichever is seen): x along the pad's heading, y to its left, z up
        from its top. "error" when detection is off or that pad is not seen."""
        body = esper.component_for_entity(endpoint.entity, RigidBody)
        pad = self._pad_below(body.position) if endpoint.pads_on else None
        if pad is None or (command.pad > 0 and pad[0] != command.pad):
            return "error"
        _number, centre, yaw = pad
        position = tuple(float(p) for p in body.position)

        def offset(x_cm, y_cm, z_cm):  # a point of the pad's frame, from the drone, in the pad's axes
            c, s = math.cos(yaw), math.sin(yaw)
            x, y = x_cm / 100.0, y_cm / 100.0
            point = (centre[0] + c * x - s * y, centre[1] + s * x + c * y, centre[2] + z_cm / 100.0)
            d = [p - q for p, q in zip(point, position)]
            return (c * d[0] + s * d[1], -s * d[0] + c * d[1], d[2])

        args = command.args
        if command.verb == "go":
            sdk_flight.start_move(endpoint.entity, offset(*args[:3]), args[3] / 100.0, yaw)
        else:
            refused = sdk_flight.start_curve(endpoint.entity, offset(*args[:3]), offset(*args[3:6]), args[6] / 100.0,
                                             yaw)
            if refused:
                return refused
        return self._begin(endpoint, command.verb)

    def _begin(self, endpoint: Endpoint, verb: str) -> str:
        endpoint.pending = verb
        endpoint.pending_since = time.monotonic()
        body = esper.component_for_entity(endpoint.entity, RigidBody)
        endpoint.start_position = tuple(float(p) for p in body.position)
        endpoint.start_heading = heading_of(body.quaternion)
        endpoint.start_velocity = tuple(float(v) for v in body.velocity)
        endpoint.start_yaw_rate = sdk_flight.world_yaw_rate(body)
        endpoint.moved = False
        return ""

    def _progress(self, endpoint: Endpoint, now: float, dt: float) -> None:
        """Reply to the command in progress once it has finished; the idle landing; the motor clock."""
        entity = endpoint.entity
        ctrl = esper.component_for_entity(entity, Controller)
        control = esper.component_for_entity(entity, SdkControl)
        body = esper.component_for_entity(entity, RigidBody)
        if ctrl.motor_power > 0.0:
            endpoint.motor_time_s += dt
        verb = endpoint.pending
        if verb is not None and not endpoint.moved:
            moved = (math.dist(endpoint.start_velocity, body.velocity) > FIRST_MOTION_M_S
                     or abs(sdk_flight.world_yaw_rate(body) - endpoint.start_yaw_rate) > FIRST_MOTION_RAD_S)
            if moved:
                endpoint.moved = True
                endpoint.latency_s = now - endpoint.pending_since
        reply = None
        if verb == "takeoff":
            if ctrl.mode != Mode.TAKEOFF:
                reply = "ok" if ctrl.motor_power > 0.0 else "error"
        elif verb == "land":
            if ctrl.mode != Mode.LANDING:
                reply = "ok" if ctrl.motor_power <= 0.0 else "error"
        elif verb is not None and control.result is not None:
            reply = control.result
        if reply is not None:
            control.result = None
            endpoint.finished = endpoint.finished[-99:] + [FinishedCommand(
                verb, reply, endpoint.start_position, endpoint.start_heading,
                tuple(float(p) for p in body.position), heading_of(body.quaternion),
                endpoint.latency_s if endpoint.moved else None, now - endpoint.pending_since)]
            endpoint.pending = None
            endpoint.last_command = now
            if endpoint.client is not None:
                self._send(endpoint, reply, endpoint.client)
        if (endpoint.pending is None and sdk_flight.flying(ctrl) and not endpoint.idle_landing
                and now - endpoint.last_command > self.idle_landing_s):
            endpoint.drone.select("land")
            endpoint.idle_landing = ctrl.mode == Mode.LANDING
            print(f"donify tello: drone {self._name(endpoint)}: no command for {self.idle_landing_s:g} s: landing",
                  file=self.out, flush=True)
        if endpoint.idle_landing and ctrl.mode != Mode.LANDING:
            endpoint.idle_landing = False

    # -- video ------------------------------------------------------------------------------------
    def _start_video(self, endpoint: Endpoint) -> str:
        if endpoint.client is None:
            return "error"
        if not self.video_wanted:
            self._say_once("video is off (--no-video): streamon answers error")
            return "error"
        if self.video is None and self.video_problem is None:
            try:
                from game.tello.video import VideoStreams, VideoUnavailable  # noqa: PLC0415 (optional: PyAV, GL)
            except ImportError as exc:
                self.video_problem = f"video is not available in this build: {exc}"
            else:
                try:
                    self.video = VideoStreams(self.app, window=self.window)
                except VideoUnavailable as exc:
                    self.video_problem = str(exc)
            if self.video_problem is not None:
                self._say_once(self.video_problem)
        if self.video is None:
            return "error"
        try:
            self.video.start(endpoint.entity, (endpoint.client[0], endpoint.video_port), bind=(endpoint.address[0], 0))
        except (ValueError, OSError) as exc:
            print(f"donify tello: drone {self._name(endpoint)}: streamon: {exc}", file=self.out, flush=True)
            return "error"
        endpoint.streaming = True
        return "ok"

    def _stop_video(self, endpoint: Endpoint) -> None:
        if self.video is not None and endpoint.streaming:
            self.video.stop(endpoint.entity)
        endpoint.streaming = False

    def _say_once(self, line: str) -> None:
        if getattr(self, "_said", None) != line:
            self._said = line
            print(f"donify tello: {line}", file=self.out, flush=True)

    # -- state -----------------------------------------------------------------------------------
    def reading(self, endpoint: Endpoint) -> Reading:
        """The drone's sensors in the SDK's units (see protocol.Reading)."""
        t = endpoint.drone.telemetry()
        body = esper.component_for_entity(endpoint.entity, RigidBody)
        yaw = heading_of(t.quaternion)
        c, s = math.cos(yaw), math.sin(yaw)
        vx, vy, vz = t.velocity
        forward, left = c * vx + s * vy, -s * vx + c * vy
        # the accelerometer: specific force (acceleration minus gravity), body axes x fwd, y right, z down
        ax, ay, az = (float(a) for a in body.acceleration)
        fx, fy, fz = _rotate_inverse(t.quaternion, (ax, ay, az + GRAVITY))
        ground = t.height_above_ground
        tof = 6553 if ground is None or ground > TOF_RANGE_M else 10 + int(round(ground * 100.0))
        h = 0 if endpoint.takeoff_z is None else int(round((t.position[2] - endpoint.takeoff_z) * 100.0))
        mid, mx, my, mz = self._pad_seen(endpoint, t) if endpoint.pads_on else (-2, -200, -200, -200)
        return Reading(
            pitch=-int(round(t.pitch_deg)), roll=int(round(t.roll_deg)),
            yaw=int(round(math.degrees(wrap(-(yaw - endpoint.yaw0))))),
            vgx=int(round(forward * 100.0)), vgy=int(round(-left * 100.0)), vgz=int(round(-vz * 100.0)),
            templ=TEMPERATURE_C[0], temph=TEMPERATURE_C[1], tof=tof, h=h,
            bat=max(0, min(100, int(round(t.battery_fraction * 100.0)))), baro=float(t.position[2]),
            time=int(endpoint.motor_time_s),
            agx=fx / GRAVITY * 1000.0, agy=-fy / GRAVITY * 1000.0, agz=-fz / GRAVITY * 1000.0,
            speed=endpoint.speed_cm_s, mid=mid, mx=mx, my=my, mz=mz)

    def _pad_seen(self, endpoint: Endpoint, t) -> tuple[int, int, int, int]:
        """The mission pad below the drone and the drone's position from it (cm, the pad's
        frame: x along its heading, y to its left, z up from its top); else −1 and −100s."""
        pad = self._pad_below(t.position)
        if pad is None:
            return -1, -100, -100, -100
        number, centre, yaw = pad
        dx, dy = t.position[0] - centre[0], t.position[1] - centre[1]
        c, s = math.cos(yaw), math.sin(yaw)
        return (number, int(round((c * dx + s * dy) * 100)), int(round((-s * dx + c * dy) * 100)),
                int(round((t.position[2] - centre[2]) * 100)))

    def _pad_below(self, position):
        """(number, centre of its top (m, world), heading rad) of a mission pad — a level pad
        whose id is m1…m8 — below `position`, up to MISSION_PAD_RANGE_M above it; else None."""
        level = getattr(self.sim, "level", None)
        for pad in () if level is None else level.pads:
            pid = str(pad.id)
            if len(pid) != 2 or pid[0] != "m" or pid[1] not in "12345678":
                continue
            a = math.radians(pad.yaw_deg)
            dx, dy = position[0] - pad.position[0], position[1] - pad.position[1]
            along, across = math.cos(a) * dx + math.sin(a) * dy, -math.sin(a) * dx + math.cos(a) * dy
            dz = position[2] - pad.top_m
            if 0.0 < dz < MISSION_PAD_RANGE_M and abs(along) <= pad.size[0] / 2 and abs(across) <= pad.size[1] / 2:
                return int(pid[1]), (float(pad.position[0]), float(pad.position[1]), float(pad.top_m)), a
        return None

    # -- out -------------------------------------------------------------------------------------
    def _send(self, endpoint: Endpoint, text: str, address: tuple[str, int]) -> None:
        try:
            endpoint.sock.sendto(text.encode("utf-8"), address)
        except OSError as exc:  # the client went away, its port is closed: the game goes on
            if exc.errno not in (errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH):
                print(f"donify tello: drone {self._name(endpoint)}: cannot send to {address[0]}:{address[1]}: {exc}",
                      file=sys.stderr)

    def _name(self, endpoint: Endpoint) -> str:
        return f"{self.endpoints.index(endpoint) + 1} ({endpoint.address[0]}:{endpoint.address[1]})"

    def describe(self) -> list[str]:
        """Where each drone listens and how to connect, for the console."""
        lines = []
        for i, e in enumerate(self.endpoints):
            ip, port = e.address
            line = f"donify tello: drone {i + 1} listens on udp {ip}:{port}"
            if port == COMMAND_PORT and not ipaddress.IPv4Address(ip).is_loopback:
                line += f" — a script connects with Tello({ip!r}) unchanged"
            else:
                line += f" — in a script: t = Tello({ip!r}); t.address = ({ip!r}, {port})"
            lines.append(line)
        return lines

    def close(self) -> None:
        if self.video is not None:
            self.video.close()
            self.video = None
        for e in self.endpoints:
            e.sock.close()


def _rotate_inverse(q, v):
    x, y, z, w = q
    # world → body: rotate by the conjugate
    x, y, z = -x, -y, -z
    tx = 2.0 * (y * v[2] - z * v[1])
    ty = 2.0 * (z * v[0] - x * v[2])
    tz = 2.0 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx))


def _bind_problem(address: tuple[str, int], exc: OSError) -> str:
    ip, port = address
    if exc.errno == errno.EADDRINUSE:
        return (f"tello: cannot listen on udp {ip}:{port}: the port is taken (DJITelloPy itself binds *:8889 and "
                f"*:8890 on this host: use another --port, e.g. 9889, or the network-namespace recipe)")
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"tello: cannot listen on udp {ip}:{port}: no interface of this machine has the address {ip}"
    return f"tello: cannot listen on udp {ip}:{port}: {exc.strerror or exc}"
