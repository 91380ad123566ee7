"""`python -m game.tello.video_bench [--seconds S] [--drones N] [--convert auto|gpu|cpu]`:
what the camera stream costs here.

Runs the game headless at 60 frames a second of wall time (a frame of the simulation, then
`VideoStreams.pump()`, as the Tello server's loop does) with N drones streaming their front
camera to a local UDP port, each turning at 90°/s so that every picture differs from the
last; then prints, per stream, the pictures sent per second of wall time, the main thread's
cost of a picture (draw and read back), the encoder thread's (convert, encode, send), the
bit rate and the pictures skipped, and the game's frame time.

The first drone's stream is decoded as it arrives (PyAV, as a client does); once a second
its drone turns a quarter turn at once, and the delay from that turn to the first decoded
picture that shows it is the stream's latency (waiting for the next picture included).
"""

from __future__ import annotations

import argparse
import math
import socket
import statistics
import threading
import time

from components.flight import RigidBody
from flight import quat
from game.simulation import Simulation
from game.tello.video import VideoStreams, VideoUnavailable

FRAME_S = 1.0 / 60.0
TURN_RAD_S = math.pi / 2.0


def run_video_bench(seconds: float = 10.0, drones: int = 1, convert: str = "auto", out=print) -> int:
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.0.0.1", 0))
    sink.settimeout(0.05)
    first = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # the first drone's: decoded
    first.bind(("127.0.0.1", 0))
    first.settimeout(0.05)
    decoded: list[tuple[float, object]] = []  # (arrival, a coarse grey picture)
    running = True

    def drain() -> None:
        while running:
            try:
                sink.recv(65536)
            except socket.timeout:
                continue

    def decode() -> None:
        import av  # noqa: PLC0415 (VideoStreams below says so in one line when it is missing)

        decoder = av.CodecContext.create("h264", "r")
        while running:
            try:
                data = first.recv(65536)
            except socket.timeout:
                continue
            for packet in decoder.parse(data):
                for frame in decoder.decode(packet):
                    decoded.append((time.perf_counter(), frame.to_ndarray(format="gray")[::8, ::8].astype(int)))

    readers = [threading.Thread(target=drain, daemon=True), threading.Thread(target=decode, daemon=True)]
    with Simulation(level="street") as sim:
        for i in range(1, drones):
            sim.add_drone(position=(2.0 * i, 3.0, 1.0))
        try:
            video = VideoStreams(sim.app, convert=convert)
        except VideoUnavailable as exc:
            out(f"donify: {exc}")
            return 1
        with video:
            for reader in readers:
                reader.start()
            entities = [d.entity for d in sim.drones]
            for entity in entities:
                video.start(entity, (first if entity == entities[0] else sink).getsockname())
            frame_times = []
            turns: list[float] = []  # when the first drone turned a quarter turn at once
            start = time.perf_counter()
            frames = 0
            while time.perf_counter() - start < seconds:
                t0 = time.perf_counter()
                for drone in sim.drones:
                    (body,) = drone.components(RigidBody)
                    yaw = TURN_RAD_S * frames * FRAME_S
                    if drone is sim.drones[0]:
                        yaw = math.pi / 2.0 * int(frames * FRAME_S)
                        if frames and int(frames * FRAME_S) != int((frames - 1) * FRAME_S):
                            turns.append(t0)
                    body.quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), yaw)
                    body.previous_quaternion[:] = body.quaternion
                sim.step(FRAME_S)
                video.pump()
                frame_times.append(time.perf_counter() - t0)
                frames += 1
                time.sleep(max(0.0, start + frames * FRAME_S - time.perf_counter()))
            now = time.perf_counter()
            for entity in entities:
                s = video.stats(entity)
                span = now - s.started_s
                out(f"drone {entity}: {s.fps(now):.1f} pictures/s sent "
                    f"({s.frames_drawn} drawn, {s.frames_skipped} skipped), "
                    f"draw + read back {1000 * s.draw_s / max(s.frames_drawn, 1):.1f} ms (main thread), "
                    f"convert + encode + send {1000 * s.encode_s / max(s.frames_sent, 1):.1f} ms (encoder thread), "
                    f"{8 * s.bytes_sent / span / 1000:.0f} kbit/s, largest datagram {s.largest_datagram} B")
            delays = latencies(turns, decoded)
            if delays:
                out(f"latency from a turn to the first decoded picture showing it: median "
                    f"{1000 * statistics.median(delays):.0f} ms, worst {1000 * max(delays):.0f} ms "
                    f"({len(delays)} turns)")
            out(f"I420 conversion on the {'GPU' if video.gpu_convert else 'CPU (encoder thread)'}")
            out(f"game: {frames / (now - start):.1f} frames/s, frame time median "
                f"{1000 * statistics.median(frame_times):.1f} ms, 95th percentile "
                f"{1000 * sorted(frame_times)[int(0.95 * len(frame_times))]:.1f} ms")
    running = False
    for reader in readers:
        if reader.is_alive():
            reader.join()
    sink.close()
    first.close()
    return 0


def latencies(turns: list[float], decoded: list) -> list[float]:
    """For each turn, the time to the first picture decoded after it that differs from the last
    one decoded before it (a quarter turn changes most of a street's picture)."""
    out = []
    for turn in turns:
        before = [p for t, p in decoded if t <= turn]
        if not before:
            continue
        after = next((t for t, p in decoded if t > turn and abs(p - before[-1]).mean() > 10.0), None)
        if after is not None:
            out.append(after - turn)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tello.video_bench",
                                     description="What the camera stream costs here.")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--drones", type=int, default=1)
    parser.add_argument("--convert", choices=("auto", "gpu", "cpu"), default="auto",
                        help="where RGB becomes I420 (auto: the GPU unless it is a software rasteriser)")
    args = parser.parse_args(argv)
    if not 1.0 <= args.seconds <= 600.0 or not 1 <= args.drones <= 16:
        parser.error("expected --seconds from 1 to 600 and --drones from 1 to 16")
    return run_video_bench(args.seconds, args.drones, args.convert)


if __name__ == "__main__":
    raise SystemExit(main())
