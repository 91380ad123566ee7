"""The Tello camera stream (game/tello/video.py, game/render/front_camera.py): real pictures of
a drone's front camera drawn headless, encoded to H.264 and sent over UDP as a Tello does,
received and decoded here the way a client does (PyAV's H.264 decoder, and DJITelloPy's own
frame reader)."""

from __future__ import annotations

import math
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from components.flight import RigidBody
from flight import quat
from game.render.front_camera import FOV_Y_DEG
from game.render.passes.fleet import shown_bodies
from game.simulation import Simulation
from game.tello.video import (MAX_DATAGRAM, MISSING_PYAV, VideoStreams, VideoUnavailable, check_address,
                              datagrams)

ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 960, 720  # the Tello's stream
TELLO_DIAGONAL_FOV_DEG = 82.6
# focal length in pixels of a pinhole camera whose diagonal (1200 px at 960×720) spans 82.6°
FOCAL_PX = math.hypot(WIDTH, HEIGHT) / 2.0 / math.tan(math.radians(TELLO_DIAGONAL_FOV_DEG) / 2.0)
GUARD_SPAN_M = 0.1697  # the Tello's width across its guards (the collision envelope's Y side)
FRAME_S = 1.0 / 60.0


@pytest.fixture
def sim(make_sim):
    return make_sim(level="street")


@pytest.fixture
def streams(sim):
    video = VideoStreams(sim.app)
    yield video
    video.close()


class Receiver:
    """A client's port 11111: keeps every datagram with its arrival time and decodes the byte
    stream with PyAV's H.264 decoder as it comes (on its own thread, as DJITelloPy does),
    from the first datagram arriving at or after `join_at_s` (perf_counter) on."""

    def __init__(self, join_at_s: float = 0.0) -> None:
        import av  # noqa: PLC0415

        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.settimeout(0.05)
        self.address = self.socket.getsockname()
        self.join_at_s = join_at_s
        self.datagrams: list[tuple[float, bytes]] = []
        self.frames: list[tuple[float, np.ndarray]] = []
        self.av = av
        self.decoder = av.CodecContext.create("h264", "r")
        self.undecodable = 0
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running:
            try:
                data, _ = self.socket.recvfrom(65536)
            except socket.timeout:
                continue
            now = time.perf_counter()
            self.datagrams.append((now, data))
            if now < self.join_at_s:
                continue
            for packet in self.decoder.parse(data):
                try:
                    decoded = self.decoder.decode(packet)
                except self.av.error.InvalidDataError:  # before the first SPS/PPS: skipped, as a player does
                    self.undecodable += 1
                    continue
                for frame in decoded:
                    self.frames.append((time.perf_counter(), frame.to_ndarray(format="rgb24")))

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


def run(sim, streams, seconds: float, until=None) -> None:
    """The game's loop at 60 frames a second of wall time: a frame of the simulation, then the
    streams' pump (as the Tello server's loop does), for `seconds` or until `until()`."""
    start = time.perf_counter()
    frames = 0
    while time.perf_counter() - start < seconds:
        sim.step(FRAME_S)
        streams.pump()
        frames += 1
        if until is not None and until():
            return
        time.sleep(max(0.0, start + frames * FRAME_S - time.perf_counter()))


def player_entity(sim) -> int:
    return sim.drones[0].entity


def turn(sim, yaw_rad: float) -> None:
    """Turn the player's drone (resting on its pad) to `yaw_rad`, at once."""
    (body,) = sim.components(RigidBody)
    body.quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), yaw_rad)
    body.previous_quaternion[:] = body.quaternion


def fraction_changed(a: np.ndarray, b: np.ndarray, threshold: int = 30) -> float:
    return float(np.mean(np.abs(a.astype(int) - b.astype(int)).sum(axis=2) > threshold))


# -- the stream, received and decoded -------------------------------------------------------------
@pytest.mark.parametrize("convert", ["cpu", "gpu"])
def test_a_client_decodes_tello_frames_within_two_seconds_and_they_follow_the_drone(sim, convert):
    """Whichever side converts the picture to I420 (llvmpipe here: "auto" is the CPU)."""
    receiver = Receiver()
    streams = VideoStreams(sim.app, convert=convert)
    assert streams.gpu_convert == (convert == "gpu")
    try:
        start = time.perf_counter()
        streams.start(player_entity(sim), receiver.address)
        run(sim, streams, 2.0, until=lambda: len(receiver.frames) >= 10)
        assert receiver.frames, "no frame decoded within 2 s of start()"
        first_at, first = receiver.frames[0]
        assert first_at - start <= 2.0
        assert first.shape == (HEIGHT, WIDTH, 3)
        # the drone rests on its pad: its picture stays the same…
        run(sim, streams, 0.3)
        steady = receiver.frames[-1][1]
        assert fraction_changed(first, steady) < 0.02
        # …until it turns: facing across the street instead of along it, most of the picture changes
        turn(sim, math.pi / 2.0)
        seen = len(receiver.frames)
        run(sim, streams, 1.5, until=lambda: len(receiver.frames) >= seen + 5)
        assert len(receiver.frames) > seen
        assert fraction_changed(first, receiver.frames[-1][1]) > 0.3
        assert all(len(d) <= MAX_DATAGRAM for _, d in receiver.datagrams)
        assert max(len(d) for _, d in receiver.datagrams) == MAX_DATAGRAM  # the key frames fill whole datagrams
    finally:
        streams.close()
        receiver.close()


def test_headers_are_repeated_so_a_decoder_joining_late_decodes(sim, streams):
    """A receiver that missed the first key frame (and its SPS/PPS) still decodes: libx264
    repeats the headers before every key frame (keyint 30: one a second at 30 fps)."""
    start = time.perf_counter()
    receiver = Receiver(join_at_s=start + 0.5)
    try:
        streams.start(player_entity(sim), receiver.address)
        run(sim, streams, 3.0, until=lambda: len(receiver.frames) >= 3)
        late = [d for t, d in receiver.datagrams if t >= receiver.join_at_s]
        early = [d for t, d in receiver.datagrams if t < receiver.join_at_s]
        assert early and late
        assert receiver.frames, "the late decoder decoded nothing"
        assert receiver.undecodable > 0  # it did join late: what came before the next headers was lost
        stream = b"".join(d for _, d in receiver.datagrams)
        sps = stream.count(b"\x00\x00\x01\x67") + stream.count(b"\x00\x00\x01\x27")  # NAL type 7, any ref_idc
        assert sps >= 2
        assert b"".join(late).find(b"\x00\x00\x01\x67") >= 0
    finally:
        receiver.close()


def test_stop_stops_the_datagrams(sim, streams):
    receiver = Receiver()
    try:
        entity = player_entity(sim)
        streams.start(entity, receiver.address)
        run(sim, streams, 2.0, until=lambda: len(receiver.datagrams) >= 3)
        assert receiver.datagrams
        streams.stop(entity)
        assert not streams.streaming(entity)
        stopped = len(receiver.datagrams)
        run(sim, streams, 0.5)
        time.sleep(0.1)
        assert len(receiver.datagrams) == stopped
    finally:
        receiver.close()


def test_djitellopy_frame_reader_gets_changing_720x960_frames_within_two_seconds_of_stream(sim, streams):
    """DJITelloPy's own `BackgroundFrameRead` (what `get_frame_read()` returns after
    `streamon`), pointed at a free port instead of 11111: its first 720×960 frame comes within
    2 s of its opening at 30 frames a second, while the stream runs (PyAV's probe of a raw
    H.264 stream reads about 40 frames before it returns, whatever their content)."""
    from djitellopy.tello import BackgroundFrameRead  # noqa: PLC0415

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.bind(("0.0.0.0", 0))
    port = probe.getsockname()[1]
    probe.close()
    reader: list = []
    opened: list[float] = []
    sent_at_open: list[int] = []

    def open_reader() -> None:  # it probes the stream in its constructor: off the game's thread
        opened.append(time.perf_counter())
        sent_at_open.append(streams.stats(player_entity(sim)).frames_sent)
        frame_read = BackgroundFrameRead(None, f"udp://@0.0.0.0:{port}")
        frame_read.start()
        reader.append(frame_read)

    streams.start(player_entity(sim), ("127.0.0.1", port))  # streamon…
    run(sim, streams, 0.3)
    opener = threading.Thread(target=open_reader, daemon=True)  # …then get_frame_read()
    opener.start()

    def got_frame() -> bool:
        return bool(reader) and reader[0].frame.shape == (HEIGHT, WIDTH, 3)

    try:
        run(sim, streams, 6.0, until=got_frame)
        assert got_frame(), "DJITelloPy read no 720×960 frame"
        # counted in the stream's frames, not in this machine's seconds: at the Tello's 30 frames
        # a second, 55 frames are 1.83 s
        assert streams.stats(player_entity(sim)).frames_sent - sent_at_open[0] <= 55
        assert time.perf_counter() - opened[0] <= 4.0  # and no hang
        first = reader[0].frame.copy()
        turn(sim, math.pi / 2.0)
        run(sim, streams, 1.0)
        assert fraction_changed(first, reader[0].frame) > 0.3
    finally:
        for frame_read in reader:
            frame_read.stop()
        opener.join(timeout=5.0)


def test_two_drones_stream_each_its_own_picture_to_its_own_port(sim, streams):
    other = sim.add_drone(position=(3.0, 4.0, 1.0), yaw_deg=90.0)
    receivers = [Receiver(), Receiver()]
    try:
        for drone, receiver in zip(sim.drones, receivers):
            streams.start(drone.entity, receiver.address)
        run(sim, streams, 4.0, until=lambda: all(len(r.frames) >= 3 for r in receivers))
        assert all(r.frames for r in receivers), [len(r.frames) for r in receivers]
        assert all(r.frames[-1][1].shape == (HEIGHT, WIDTH, 3) for r in receivers)
        assert fraction_changed(receivers[0].frames[-1][1], receivers[1].frames[-1][1]) > 0.3
        assert streams.stats(other.entity).frames_sent >= 3
    finally:
        for receiver in receivers:
            receiver.close()


def test_a_drone_removed_while_it_streams_ends_its_stream_not_the_game(sim, streams):
    other = sim.add_drone(position=(3.0, 4.0, 1.0))
    receiver = Receiver()
    try:
        streams.start(other.entity, receiver.address)
        run(sim, streams, 2.0, until=lambda: len(receiver.datagrams) >= 1)
        sim.remove_drone(other)
        run(sim, streams, 0.2)
        assert not streams.streaming(other.entity)
    finally:
        receiver.close()


def test_an_encoder_that_fails_ends_its_stream_not_the_game(sim, streams, caplog):
    receiver = Receiver()
    try:
        entity = player_entity(sim)
        streams.start(entity, receiver.address)
        stream = streams.streams[entity]

        def broken(pixels) -> None:
            raise RuntimeError("the encoder broke")

        stream._encode = broken
        stream.offer(np.zeros((HEIGHT, WIDTH, 3), np.uint8))
        deadline = time.perf_counter() + 5.0
        while not stream.failed and time.perf_counter() < deadline:
            time.sleep(0.01)
        streams.pump()
        assert not streams.streaming(entity)
        assert any("stream of drone" in r.getMessage() and "\n" not in r.getMessage() for r in caplog.records)
        sim.step(FRAME_S)
        streams.pump()  # the game goes on
    finally:
        receiver.close()


def test_in_the_game_window_the_stream_leaves_the_game_frame_as_it_was():
    """Drawn in the window's own GL context (`window=`): the window's next frame is the same
    with or without a picture of the camera drawn between."""
    from game.settings import Settings  # noqa: PLC0415
    from game.window import Game  # noqa: PLC0415

    settings = Settings()
    settings.input.backend = "none"
    game = Game("street", settings=settings, width=640, height=360, visible=False, audio=False)
    receiver = Receiver()
    try:
        video = VideoStreams(game.app, window=game.window)
        for _ in range(3):
            game.frame(FRAME_S)
        game.draw()
        before = game.pixels()
        entity = game.sim.drones[0].entity
        picture = video.picture(entity)
        video.start(entity, receiver.address)
        video.pump()
        game.draw()
        after = game.pixels()
        assert np.array_equal(before, after)
        assert picture.shape == (HEIGHT, WIDTH, 3)
        assert fraction_changed(picture, np.zeros_like(picture)) > 0.9  # a picture, not black
        video.close()
        game.draw()
        assert np.array_equal(before, game.pixels())  # the game's context and window are untouched
    finally:
        receiver.close()
        game.close()


# -- the pace ----------------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def settle(streams, entity: int) -> None:
    """Wait (wall time) until the encoder took and finished the last picture."""
    stream = streams.streams[entity]
    deadline = time.perf_counter() + 5.0
    while stream.busy() and time.perf_counter() < deadline:
        time.sleep(0.002)


def test_thirty_pictures_a_second_of_wall_time_and_no_catching_up_after_a_stall(sim):
    clock = FakeClock()
    video = VideoStreams(sim.app, clock=clock)
    receiver = Receiver()
    try:
        entity = player_entity(sim)
        video.start(entity, receiver.address)
        stats = video.stats(entity)
        for _ in range(120):  # one second of a 120 Hz game loop: due at 0, 1/30, … 29/30 s
            video.pump()
            settle(video, entity)
            clock.now += 1.0 / 120.0
        assert stats.frames_drawn == 30
        assert stats.frames_skipped == 0
        clock.now += 1.0  # a stalled game: one frame a second late
        video.pump()
        drawn = stats.frames_drawn
        assert drawn == 31
        for _ in range(60):  # half a second more: 15 pictures, not the 30 missed during the stall
            settle(video, entity)
            clock.now += 1.0 / 120.0
            video.pump()
        assert stats.frames_drawn - drawn == 15
        settle(video, entity)
        assert stats.frames_sent == stats.frames_drawn
    finally:
        video.close()
        receiver.close()


def test_a_busy_encoder_skips_the_picture_instead_of_queueing_it(sim, streams):
    receiver = Receiver()
    try:
        entity = player_entity(sim)
        streams.start(entity, receiver.address)
        stream = streams.streams[entity]
        stream.offer(np.zeros((HEIGHT, WIDTH, 3), np.uint8))  # the encoder has a picture to work on
        stream.next_due_s = 0.0
        drawn = stream.stats.frames_drawn
        streams.pump()
        assert stream.stats.frames_drawn == drawn
        assert stream.stats.frames_skipped == 1
    finally:
        receiver.close()


# -- the picture -------------------------------------------------------------------------------
def other_drone_box(sim, streams, ahead_m: float, left_m: float, yaw_deg: float):
    """Lift the player's drone 4 m above its pad, put another drone `ahead_m` in front of its
    camera and `left_m` to its left at the camera's height, and give the (columns, rows) the
    other drone covers in the picture (what changes when it is added)."""
    (body,) = sim.components(RigidBody)
    body.position[2] += 4.0
    body.previous_position[:] = body.position
    entity = player_entity(sim)
    empty = streams.picture(entity).copy()
    eye = np.array(streams.camera.camera.eye)  # where the camera was just drawn from
    yaw = quat.to_euler(body.quaternion)[2]
    forward = np.array((math.cos(yaw), math.sin(yaw), 0.0))
    left = np.array((-math.sin(yaw), math.cos(yaw), 0.0))
    centre_height = eye[2] - (streams.camera.drone.camera_position_m[2])  # its camera at the same height
    position = eye + ahead_m * forward + left_m * left
    other = sim.add_drone(position=(position[0], position[1], centre_height), yaw_deg=math.degrees(yaw) + yaw_deg)
    seen = streams.picture(entity)
    sim.remove_drone(other)
    mask = np.abs(seen.astype(int) - empty.astype(int)).sum(axis=2) > 30
    rows, cols = np.nonzero(mask)
    return cols, rows


def test_the_vertical_field_of_view_is_the_tellos_diagonal_82_6_degrees_at_4_to_3():
    assert FOCAL_PX == pytest.approx(HEIGHT / 2.0 / math.tan(math.radians(FOV_Y_DEG) / 2.0), rel=1e-9)


def test_another_drone_straight_ahead_is_centred_and_as_wide_as_a_pinhole_camera_shows_it(sim, streams):
    """Facing the camera, 1.5 m ahead at its height: the guards' 169.7 mm span, at the depth of
    the motor axes (44.5 mm nearer than its centre), is FOCAL_PX · span / depth pixels wide
    (≈ 80; a 53° vertical field of view would make it 85), centred on both axes: the camera
    looks straight ahead, level with the body."""
    cols, rows = other_drone_box(sim, streams, 1.5, 0.0, 180.0)
    assert len(cols)
    depth = 1.5 - 0.0445
    expected_width = FOCAL_PX * GUARD_SPAN_M / depth
    assert cols.max() - cols.min() + 1 == pytest.approx(expected_width, abs=1.5)
    assert (cols.max() + cols.min()) / 2.0 == pytest.approx(WIDTH / 2.0 - 0.5, abs=1.0)
    assert (rows.max() + rows.min()) / 2.0 == pytest.approx(HEIGHT / 2.0 - 0.5, abs=1.0)


@settings(max_examples=4, deadline=None)
@given(angle_deg=st.floats(-30.0, 30.0))
@example(angle_deg=25.0)
@example(angle_deg=-25.0)
def test_another_drone_off_the_axis_is_where_the_lens_puts_it(angle_deg):
    """`angle_deg` to the left of the camera's axis, 4 m away: its centre is at column
    W/2 − f·tan(angle) (f from the 82.6° diagonal), a column per pixel."""
    with Simulation(level="street") as sim, VideoStreams(sim.app) as video:
        ahead = 4.0
        cols, _ = other_drone_box(sim, video, ahead, ahead * math.tan(math.radians(angle_deg)), 90.0)
        assert len(cols)
        # seen from the side, the drone is its 175.2 mm length: symmetric about its centre
        centre = (cols.max() + cols.min()) / 2.0 + 0.5
        assert centre == pytest.approx(WIDTH / 2.0 - FOCAL_PX * math.tan(math.radians(angle_deg)), abs=2.0)


def test_every_drone_but_the_one_carrying_the_camera_is_drawn(sim, streams):
    """The camera sits in the nose: its own drone's body is not drawn; every other one is."""
    player = player_entity(sim)
    other = sim.add_drone(position=(0.0, 0.0, 5.0)).entity
    camera = streams.camera
    for entity, seen in ((player, other), (other, player)):
        camera.prepare(entity)
        fleet = camera.frame.fleet
        rows = shown_bodies(fleet, camera.frame.camera)
        assert [fleet.entities[r] for r in rows] == [seen]


def test_the_gpu_converts_to_i420_as_bt601_limited_range_says(sim, streams):
    """Y = 16 + 65.481 R + 128.553 G + 24.966 B, U = 128 − 37.797 R − 74.203 G + 112 B,
    V = 128 + 112 R − 93.786 G − 18.214 B (R, G, B in 0…1), chroma from each 2×2 block's mean,
    planes one after the other: what an H.264 decoder turns back into the picture."""
    entity = player_entity(sim)
    rgb = streams.picture(entity).astype(float) / 255.0
    i420 = streams._in_context(streams.camera.i420.convert).astype(int)
    assert i420.shape == (HEIGHT * 3 // 2, WIDTH)
    y = np.floor(16.0 + rgb @ np.array((65.481, 128.553, 24.966)) + 0.5)
    block = rgb.reshape(HEIGHT // 2, 2, WIDTH // 2, 2, 3).mean(axis=(1, 3))
    u = np.floor(128.0 + block @ np.array((-37.797, -74.203, 112.0)) + 0.5).reshape(-1)
    v = np.floor(128.0 + block @ np.array((112.0, -93.786, -18.214)) + 0.5).reshape(-1)
    quarter = HEIGHT // 4
    assert np.abs(i420[:HEIGHT] - y).max() <= 1
    assert np.abs(i420[HEIGHT:HEIGHT + quarter].reshape(-1) - u).max() <= 1  # linear filtering's rounding
    assert np.abs(i420[HEIGHT + quarter:].reshape(-1) - v).max() <= 1
    assert np.ptp(y) > 100 and np.ptp(u) > 10 and np.ptp(v) > 10  # a picture with colours, not a flat one


# -- bad input and missing parts ----------------------------------------------------------------
def test_without_pyav_one_line_says_what_to_install():
    code = ("import sys; sys.modules['av'] = None\n"
            "from game.tello.video import VideoStreams, VideoUnavailable\n"
            "try:\n    VideoStreams(None)\nexcept VideoUnavailable as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == MISSING_PYAV + "\n"
    assert MISSING_PYAV == "video needs PyAV: pip install 'donify[tello]'"
    assert "Traceback" not in done.stderr


def test_without_a_gl_context_one_line_says_so(sim, monkeypatch):
    import pyglet.window  # noqa: PLC0415

    def refuse(*args, **kwargs):
        raise pyglet.gl.ContextException("no EGL display")

    monkeypatch.setattr(pyglet.window, "Window", refuse)
    with pytest.raises(VideoUnavailable) as caught:
        VideoStreams(sim.app)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("video needs an OpenGL 3.3 context") and "no EGL display" in message


def test_start_refuses_what_is_not_a_drone(sim, streams):
    with pytest.raises(ValueError, match="not a drone"):
        streams.start(10_000, ("127.0.0.1", 11111))
    assert not streams.streams


def test_a_host_name_is_looked_up_once_at_start(sim, streams):
    entity = player_entity(sim)
    streams.start(entity, ("localhost", 11111))
    assert streams.streams[entity].address == ("127.0.0.1", 11111)


@given(address=st.one_of(st.none(), st.integers(), st.text(max_size=8),
                         st.tuples(st.text(max_size=8), st.integers(-10, 70_000)),
                         st.tuples(st.integers(), st.integers()), st.tuples(st.text(min_size=1), st.booleans()),
                         st.lists(st.integers(0, 9), max_size=3)))
def test_bad_addresses_are_refused_with_one_line(address):
    good = (isinstance(address, tuple) and len(address) == 2 and isinstance(address[0], str) and address[0]
            and type(address[1]) is int and 1 <= address[1] <= 65535)
    if good:
        assert check_address(address) == address
        return
    with pytest.raises(ValueError) as caught:
        check_address(address)
    assert "\n" not in str(caught.value) and "expected" in str(caught.value)


@given(data=st.binary(max_size=20_000))
def test_datagrams_are_the_bytes_in_order_in_pieces_of_at_most_1460(data):
    pieces = datagrams(data)
    assert b"".join(pieces) == data
    assert all(0 < len(p) <= MAX_DATAGRAM for p in pieces)
    assert all(len(p) == MAX_DATAGRAM for p in pieces[:-1])
    assert len(pieces) == math.ceil(len(data) / MAX_DATAGRAM)
