"""The Tello SDK's text protocol, pure: commands in, replies and the state datagram out.

`parse(datagram)` turns one UDP datagram into a `Command` (checked verb and arguments) or the
reply a real drone gives to what it cannot run (`error`, `out of range`, `unknown command: X`),
or `SILENT` for what must never be answered (`rc`, valid or not, and `emergency`/`reboot`,
which DJITelloPy sends without waiting: an answer would be taken as the next command's).
It never raises, whatever the bytes. `state_line(reading)` formats the 10 Hz state datagram
and `read_reply(verb, reading)` the answers to the read commands (`battery?`, `tof?`…), in
the formats the real drone uses.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MAX_DATAGRAM = 1024  # longer commands are refused ("error")
SILENT = ""  # parse(): no reply at all

MOVES = ("up", "down", "left", "right", "forward", "back")
NO_ARGUMENTS = ("command", "takeoff", "land", "streamon", "streamoff", "emergency", "stop", "keepalive",
                "motoron", "motoroff", "reboot", "mon", "moff", "throwfly")
SETTINGS = ("setfps", "setbitrate", "setresolution", "downvision", "wifi", "ap", "port", "mdirection")
READS = ("battery?", "speed?", "time?", "height?", "temp?", "attitude?", "baro?", "acceleration?", "tof?",
         "wifi?", "sdk?", "sn?", "active?", "hardware?", "wifiversion?", "ap?", "ssid?")
_INTEGER = re.compile(r"[+-]?[0-9]{1,6}", re.ASCII)
SERIAL_NUMBER = "0TQZDONIFY0001"  # 14 characters, as a Tello's


@dataclass(frozen=True)
class Command:
    """A checked command: `verb` (lower case) and its arguments (ints, or a string for flip,
    wifi and the like); `pad`: the mission pad id of `go … mN` / `curve … mN` (0: none)."""

    verb: str
    args: tuple = ()
    pad: int = 0


def parse(datagram: bytes) -> Command | str:
    """A Command, or the reply to send instead (SILENT: none). Never raises."""
    if len(datagram) > MAX_DATAGRAM:
        return "error"
    try:
        text = datagram.decode("utf-8")
    except UnicodeDecodeError:
        return "error"
    words = text.strip().split()
    if not words:
        return "error"
    verb = words[0].lower()
    args = words[1:]
    if verb == "rc" or verb in ("emergency", "reboot"):
        if verb == "rc":
            sticks = _ints(args, 4)
            if sticks is None or any(abs(s) > 100 for s in sticks):
                return SILENT  # a bad rc is ignored, never answered
            return Command("rc", sticks)
        return Command(verb) if not args else SILENT
    if verb in NO_ARGUMENTS:
        return Command(verb) if not args else "error"
    if verb in READS:
        return Command(verb) if not args else "error"
    if verb in MOVES:
        value = _ints(args, 1)
        if value is None:
            return "error"
        return Command(verb, value) if 20 <= value[0] <= 500 else "out of range"
    if verb in ("cw", "ccw"):
        value = _ints(args, 1)
        if value is None:
            return "error"
        return Command(verb, value) if 1 <= value[0] <= 360 else "out of range"
    if verb == "flip":
        return Command(verb, (args[0],)) if len(args) == 1 and args[0] in ("l", "r", "f", "b") else "error"
    if verb == "speed":
        value = _numbers(args, 1)
        if value is None:
            return "error"
        return Command(verb, value) if 10 <= value[0] <= 100 else "out of range"
    if verb == "go":
        return _go(args)
    if verb == "curve":
        return _curve(args)
    if verb == "jump":
        values = _ints(args[:5], 5) if len(args) == 7 else None
        pads = _pads(args[5:]) if len(args) == 7 else None
        if values is None or pads is None:
            return "error"
        return Command(verb, values + pads)
    if verb in SETTINGS:
        return _setting(verb, args)
    return f"unknown command: {_printable(words[0])}"


def _go(args: list[str]) -> Command | str:
    pad = 0
    if len(args) == 5:
        pads = _pads(args[4:])
        if pads is None:
            return "error"
        pad, args = pads[0], args[:4]
    values = _ints(args, 4)
    if values is None:
        return "error"
    x, y, z, speed = values
    if not all(-500 <= v <= 500 for v in (x, y, z)) or not 10 <= speed <= 100:
        return "out of range"
    if all(-20 <= v <= 20 for v in (x, y, z)):
        return "out of range"
    return Command("go", values, pad)


def _curve(args: list[str]) -> Command | str:
    pad = 0
    if len(args) == 8:
        pads = _pads(args[7:])
        if pads is None:
            return "error"
        pad, args = pads[0], args[:7]
    values = _ints(args, 7)
    if values is None:
        return "error"
    if not all(-500 <= v <= 500 for v in values[:6]) or not 10 <= values[6] <= 60:
        return "out of range"
    return Command("curve", values, pad)


def _setting(verb: str, args: list[str]) -> Command | str:
    if verb in ("wifi", "ap"):
        return Command(verb, tuple(args)) if len(args) == 2 else "error"
    if verb == "port":
        ports = _ints(args, 2)
        if ports is None:
            return "error"
        return Command(verb, ports) if all(1025 <= p <= 65535 for p in ports) else "out of range"
    if verb == "mdirection":
        value = _ints(args, 1)
        if value is None:
            return "error"
        return Command(verb, value) if 0 <= value[0] <= 2 else "out of range"
    allowed = {"setfps": ("low", "middle", "high"), "setbitrate": ("0", "1", "2", "3", "4", "5"),
               "setresolution": ("low", "high"), "downvision": ("0", "1")}[verb]
    return Command(verb, (args[0],)) if len(args) == 1 and args[0] in allowed else "error"


def _ints(words: list[str], n: int) -> tuple[int, ...] | None:
    if len(words) != n:
        return None
    if not all(_INTEGER.fullmatch(w) for w in words):
        return None
    return tuple(int(w) for w in words)


def _numbers(words: list[str], n: int) -> tuple[float, ...] | None:
    if len(words) != n or any(len(w) > 12 or not w.isascii() for w in words):
        return None
    try:
        values = tuple(float(w) for w in words)
    except ValueError:
        return None
    return values if all(math.isfinite(v) for v in values) else None


def _pads(words: list[str]) -> tuple[int, ...] | None:
    """Mission pad ids m1..m8 (or m-1, m-2: "the nearest one seen")."""
    out = []
    for w in words:
        if len(w) < 2 or w[0] != "m" or w[1:] not in ("1", "2", "3", "4", "5", "6", "7", "8", "-1", "-2"):
            return None
        out.append(int(w[1:]))
    return tuple(out)


def _printable(word: str) -> str:
    """The unknown command echoed back, kept short and plain (the client logs it)."""
    cleaned = "".join(c if c.isprintable() else "?" for c in word)
    return cleaned[:40]


# -- out ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """What the drone's sensors say, in the SDK's units (see state_line)."""

    pitch: int = 0  # degrees, nose up +
    roll: int = 0  # degrees, right side down +
    yaw: int = 0  # degrees, clockwise + from the heading at `command`, in −180..180
    vgx: int = 0  # cm/s, heading frame: forward +
    vgy: int = 0  # cm/s, heading frame: right +
    vgz: int = 0  # cm/s, down +
    templ: int = 0  # °C
    temph: int = 0
    tof: int = 10  # cm to the surface below (10 on the ground, 6553 out of range)
    h: int = 0  # cm above the take-off point
    bat: int = 100  # %
    baro: float = 0.0  # m
    time: int = 0  # s with the motors on
    agx: float = 0.0  # 0.001 g, body frame: forward, right, down (−1000 z at rest)
    agy: float = 0.0
    agz: float = -1000.0
    speed: float = 100.0  # cm/s, the `speed` setting
    mid: int = -2  # mission pad seen: −2 detection off, −1 none seen, else its id
    mx: int = -200  # cm from the pad (−200 off, −100 none seen)
    my: int = -200
    mz: int = -200
    mpry: tuple[int, int, int] = (0, 0, 0)


def state_line(r: Reading) -> str:
    """The state datagram, EDU prefix included (mission pads), ending with \\r\\n."""
    return (f"mid:{r.mid};x:{r.mx};y:{r.my};z:{r.mz};mpry:{r.mpry[0]},{r.mpry[1]},{r.mpry[2]};"
            f"pitch:{r.pitch};roll:{r.roll};yaw:{r.yaw};vgx:{r.vgx};vgy:{r.vgy};vgz:{r.vgz};"
            f"templ:{r.templ};temph:{r.temph};tof:{r.tof};h:{r.h};bat:{r.bat};baro:{r.baro:.2f};"
            f"time:{r.time};agx:{r.agx:.2f};agy:{r.agy:.2f};agz:{r.agz:.2f};\r\n")


def read_reply(verb: str, r: Reading) -> str:
    """The answer to a read command, in the real drone's format."""
    if verb == "battery?":
        return str(r.bat)
    if verb == "speed?":
        return f"{float(r.speed):.1f}"
    if verb == "time?":
        return f"{r.time}s"
    if verb == "height?":
        return f"{int(round(r.h / 10.0))}dm"
    if verb == "temp?":
        return f"{r.templ}~{r.temph}C"
    if verb == "attitude?":
        return f"pitch:{r.pitch};roll:{r.roll};yaw:{r.yaw};"
    if verb == "baro?":
        return f"{r.baro:.6f}"
    if verb == "acceleration?":
        return f"agx:{r.agx:.2f};agy:{r.agy:.2f};agz:{r.agz:.2f};"
    if verb == "tof?":
        return f"{r.tof * 10}mm"
    if verb == "wifi?":
        return "90"
    if verb == "sdk?":
        return "30"
    if verb == "sn?":
        return SERIAL_NUMBER
    if verb == "active?":
        return "ok"  # (activated)
    if verb == "hardware?":
        return "RMTT"
    return "ok"  # wifiversion?, ap?, ssid?: nothing modelled to say
