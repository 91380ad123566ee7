"""`donify plot`: a telemetry file (JSON lines from `donify fly --telemetry`) drawn against time.

    donify plot out.jsonl -o flight.png

Five panels sharing the time axis (matplotlib, drawn off-screen with Agg — no display):
altitude (world z), height above ground and the target altitude; horizontal and vertical
speed with the target velocity; the four rotor speeds (rpm); the four thrusts (N); the
battery's loaded voltage and the electrical power. Assists and lab modes are shaded; a
Restart is a dashed line. The image is PLOT_SIZE_PX and is written atomically.

A file that is missing, empty, not JSON lines, truncated, or without the fields of a
telemetry record gives one line naming the file and the line (DataFileError, exit 1).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from components.modes import Mode
from engine.datafile import DataFileError, describe, read_text
from game.atomic import atomic_path, check_output_path
from game.wording import counted

FIGURE_SIZE_IN = (12.0, 10.0)
DPI = 100
PLOT_SIZE_PX = (1200, 1000)  # width, height of the image: FIGURE_SIZE_IN × DPI
MOTOR_LABELS = ("0 front-right", "1 rear-right", "2 rear-left", "3 front-left")
FORMATS = ("png", "svg", "pdf")
# legends beside the panels (past the power axis), never over the curves
_LEGEND = {"loc": "upper left", "bbox_to_anchor": (1.06, 1.0), "fontsize": "small", "borderaxespad": 0.0}

# field → (shape, may be null): the telemetry fields the plot needs (names: docs/api.md#telemetry)
_NEEDED = {
    "time": (1, False), "position": (3, False), "velocity": (3, False), "target_velocity": (3, True),
    "target_altitude": (1, True), "height_above_ground": (1, True), "rpm": (4, False), "thrust": (4, False),
    "battery_voltage": (1, False), "power_w": (1, False),
}


def read_telemetry(path: str | Path) -> list[dict]:
    """The records of a telemetry file; DataFileError (one located line) if it is unusable."""
    path = Path(path)
    text = read_text(path, "a telemetry file (JSON lines)")
    records = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            last = number == len(lines) and not text.endswith("\n")
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise DataFileError([f"{path}:{number}: expected one JSON telemetry record a line, got invalid JSON "
                                 f"({reason}){' — the file looks truncated' if last else ''}"]) from None
        problem = _record_problem(record)
        if problem:
            raise DataFileError([f"{path}:{number}: {problem}"])
        records.append(record)
    if not records:
        raise DataFileError([f"{path}:1: expected telemetry records (one JSON object a line, from donify fly "
                             "--telemetry), got an empty file"])
    return records


def _record_problem(record) -> str | None:
    if not isinstance(record, dict):
        return f"expected a telemetry record (a JSON object), got {describe(record)}"
    for name, (size, nullable) in _NEEDED.items():
        if name not in record:
            return f"{name}: expected a telemetry field (docs/api.md#telemetry), got nothing (missing key)"
        value = record[name]
        if value is None and nullable:
            continue
        ok = (_is_number(value) if size == 1 else
              isinstance(value, list) and len(value) == size and all(_is_number(v) for v in value))
        if not ok:
            what = "a number" if size == 1 else f"{size} numbers"
            return f"{name}: expected {what}{' or null' if nullable else ''}, got {describe(value)}"
    return None


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _num(value) -> float:
    return math.nan if value is None else float(value)


def flight_time(records: list[dict]) -> list[float]:
    """A time axis that keeps going if the telemetry clock starts again (at a Restart)."""
    axis: list[float] = []
    offset = 0.0
    for i, record in enumerate(records):
        t = float(record["time"])
        if i and t < records[i - 1]["time"] - 1e-9:  # continue from the last point
            offset = axis[-1]
        axis.append(offset + t)
    return axis


def _restarted(before: dict, after: dict) -> bool:
    """Only a Restart recharges the pack; the clock may also start again (game.fly.is_restart)."""
    energy = (before.get("battery_energy_wh"), after.get("battery_energy_wh"))
    recharged = all(_is_number(e) for e in energy) and energy[1] > energy[0] + 1e-12
    return recharged or after["time"] < before["time"] - 1e-9


def plot_flight(records: list[dict], output: str | Path, title: str = "") -> Path:
    """Draw `records` to `output` (format from its suffix), atomically. Returns the path."""
    output = Path(output)
    fig = flight_figure(records, title)
    with atomic_path(output) as tmp:
        fig.savefig(tmp, format=output.suffix.lstrip(".").lower() or "png")
    return output


def flight_figure(records: list[dict], title: str = ""):
    """The matplotlib Figure of `records` (five panels against flight time), not yet drawn."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (no pyplot: no GUI backend, no global state)

    t = flight_time(records)
    fig = Figure(figsize=FIGURE_SIZE_IN, dpi=DPI, layout="constrained")
    axes = fig.subplots(5, 1, sharex=True)
    fig.suptitle(title or "Donify flight")

    ax = axes[0]
    ax.plot(t, [r["position"][2] for r in records], label="altitude z (world)", color="tab:blue")
    ax.plot(t, [_num(r["target_altitude"]) for r in records], "--", label="target altitude", color="tab:blue", alpha=0.6)
    ax.plot(t, [_num(r["height_above_ground"]) for r in records], label="height above ground", color="tab:green")
    ax.set_ylabel("m")

    ax = axes[1]
    horizontal = [math.hypot(r["velocity"][0], r["velocity"][1]) for r in records]
    target_h = [math.nan if r["target_velocity"] is None else math.hypot(*r["target_velocity"][:2]) for r in records]
    ax.plot(t, horizontal, label="horizontal speed", color="tab:orange")
    ax.plot(t, target_h, "--", label="target horizontal", color="tab:orange", alpha=0.6)
    ax.plot(t, [r["velocity"][2] for r in records], label="vertical speed", color="tab:purple")
    ax.plot(t, [math.nan if r["target_velocity"] is None else r["target_velocity"][2] for r in records], "--",
            label="target vertical", color="tab:purple", alpha=0.6)
    ax.axhline(0.0, color="0.7", linewidth=0.6)
    ax.set_ylabel("m/s")

    for ax, name, unit in ((axes[2], "rpm", "rpm"), (axes[3], "thrust", "N")):
        for i, label in enumerate(MOTOR_LABELS):
            ax.plot(t, [r[name][i] for r in records], label=f"motor {label}", linewidth=1.0)
        ax.set_ylabel(f"{name} ({unit})" if name != "rpm" else "rpm")

    ax = axes[4]
    ax.plot(t, [r["battery_voltage"] for r in records], label="battery voltage (loaded)", color="tab:red")
    ax.set_ylabel("V")
    power_ax = ax.twinx()
    power_ax.plot(t, [r["power_w"] for r in records], label="electrical power", color="tab:gray")
    power_ax.set_ylabel("W")
    handles = ax.get_legend_handles_labels()
    more = power_ax.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], **_LEGEND)
    ax.set_xlabel("flight time (s)")

    _mark_modes(axes, t, records)
    for ax in axes[:4]:
        ax.legend(**_LEGEND)
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.margins(x=0)
    return fig


def _mark_modes(axes, t: list[float], records: list[dict]) -> None:
    """Shade the spans flown in an assist or a lab mode; a dashed line at each Restart. Their
    names go along the top of the first panel, on as many rows as they need not to overlap
    (a take-off of two seconds followed by a mission puts "mission" under "takeoff")."""
    colours = {Mode.TAKEOFF: "tab:green", Mode.LANDING: "tab:red", Mode.MISSION: "tab:blue", Mode.ANGLE: "tab:olive",
               Mode.ACRO: "tab:brown"}
    labels = []  # (time, text, colour)
    start, mode = 0, records[0].get("mode")
    for i in range(1, len(records) + 1):
        current = records[i].get("mode") if i < len(records) else None
        if i < len(records) and current == mode:
            continue
        if mode in colours or (mode not in (None, Mode.MANUAL)):
            for ax in axes:
                ax.axvspan(t[start], t[i - 1], color=colours.get(mode, "tab:cyan"), alpha=0.08, linewidth=0)
            labels.append((t[start], f" {mode}", colours.get(mode, "tab:cyan")))
        start, mode = i, current
    for i in range(1, len(records)):
        if _restarted(records[i - 1], records[i]):
            for ax in axes:
                ax.axvline(t[i], color="0.3", linestyle="--", linewidth=0.8)
            labels.append((t[i], " restart", "black"))
    span = max(t[-1] - t[0], 1e-9)
    row_ends: list[float] = []  # per row, where its last label ends (s)
    for x, text, colour in sorted(labels, key=lambda label: label[0]):
        width = len(text) * _LABEL_CHAR_AXES * span
        row = next((r for r, end in enumerate(row_ends) if end <= x), len(row_ends))
        if row == len(row_ends):
            row_ends.append(x + width)
        row_ends[row] = x + width
        axes[0].annotate(text, (x, 0.97 - _LABEL_ROW_AXES * (row % _LABEL_ROWS)), xycoords=("data", "axes fraction"),
                         fontsize="small", va="top", color=colour)


# mode labels: a character's width as a fraction of the panel's (small font, the panel about
# 8 in wide), with a margin; the height of a row, as a fraction of the panel's; rows used
_LABEL_CHAR_AXES = 0.0085
_LABEL_ROW_AXES = 0.14
_LABEL_ROWS = 4


def run_plot(telemetry: str | None, output: str | None) -> int:
    """`donify plot`: ValueError for usage (exit 2), DataFileError for a bad file (exit 1)."""
    if not telemetry:
        raise ValueError("plot: expected a telemetry file (written by donify fly --telemetry)")
    output = output or str(Path(telemetry).with_suffix(".png"))
    suffix = Path(output).suffix.lstrip(".").lower()
    if suffix not in FORMATS:
        raise ValueError(f"plot: -o {output}: expected an image file ending in {', '.join('.' + f for f in FORMATS)}, "
                         f"got {'.' + suffix if suffix else 'no suffix'}")
    check_output_path(output, "plot: -o")
    records = read_telemetry(telemetry)
    try:
        plot_flight(records, output, title=f"Donify flight — {Path(telemetry).name}: {counted(len(records), 'record')}, "
                                          f"{flight_time(records)[-1]:.1f} s")
    except OSError as exc:
        raise DataFileError([f"{output}: cannot write the plot: {exc.strerror or exc}"]) from None
    print(f"{output}: {counted(len(records), 'record')} plotted", flush=True)
    return 0
