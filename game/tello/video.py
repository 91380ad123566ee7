"""The Tello's camera stream: each drone's front camera as H.264, the way a real Tello sends it.

After `streamon` a Tello sends its camera as a raw H.264 byte stream (Annex-B, 960×720, about
30 frames a second, SPS and PPS repeated before every key frame) to the client's UDP port
11111, in datagrams of at most 1460 bytes. `VideoStreams` does the same for Donify's drones:

- `start(entity, (client_ip, client_port))`: stream that drone's camera to that address
  (again for the same drone: to the new address, from a key frame);
- `pump()`: called once per game frame, on the thread that owns the game's GL (the main
  thread): for the stream most overdue, if its encoder is free, draws the drone's front camera
  offscreen (game/render/front_camera.py: the level, the sky, the gates, the rain, the other
  drones; EGL when there is no display), reads it back and hands it to that stream's encoder
  thread;
- `stop(entity)`: no datagram leaves for that drone after it returns;
- `close()`: every stream stopped, the GL objects and the context freed.

The pace is wall time: a stream is due every 1/`fps` s. A picture whose encoder still works
on the last one waits for it, at most until the next picture is due: then it is skipped,
never queued; and when the game's frames come too slowly the stream does not catch up. The
picture is always the newest and the delay never grows. `pump()` draws at most one picture per
call (the most overdue stream's), so the game's frame time grows by one picture at most; with
several drones streaming each gets its share of the game's frame rate. `stats(entity)` says
how many frames were drawn, sent and skipped and what a picture and an encoding cost.

The encoder takes I420 (YUV 4:2:0) pictures. With a hardware GPU the picture is converted on
the GPU and read back as I420 (half the bytes of RGB, nothing left for the CPU); with a
software rasteriser (Mesa's llvmpipe) that conversion costs the main thread more than
swscale's costs the encoder thread, so the picture is read back as RGB and converted by the
encoder thread (`convert="auto"`; "gpu" or "cpu" choose).

Encoding: PyAV's libx264, `preset=ultrafast`, `tune=zerolatency` (no B-frames, no look-ahead:
one frame in, its packet out), `x264-params=repeat-headers=1:keyint=30` (an IDR with SPS and
PPS every second, so a decoder that joins late — DJITelloPy's `get_frame_read()` — decodes
within a second). The encoded bytes are sent as they come, cut in 1460-byte datagrams.

PyAV is optional (`pip install 'donify[tello]'`). Without it, or without a GL context,
`VideoStreams(app)` raises `VideoUnavailable` whose message is the one-line reason.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from dataclasses import dataclass
from fractions import Fraction

from game.display import has_display, use_headless
from systems.scene import drones

log = logging.getLogger("donify.tello.video")

VIDEO_PORT = 11111  # the client's port a Tello streams to
WIDTH, HEIGHT = 960, 720
FPS = 30.0
MAX_DATAGRAM = 1460  # bytes of H.264 per UDP datagram, as the Tello sends them
X264_OPTIONS = {"preset": "ultrafast", "tune": "zerolatency", "x264-params": "repeat-headers=1:keyint=30"}
SEND_BUFFER_BYTES = 1 << 20  # a key frame's burst of datagrams fits
MISSING_PYAV = "video needs PyAV: pip install 'donify[tello]'"


class VideoUnavailable(RuntimeError):
    """The camera stream cannot run here; the message is the one-line reason (PyAV missing,
    PyAV without libx264, no OpenGL 3.3 context)."""


def load_av():
    """The `av` module with its libx264 encoder, else `VideoUnavailable`."""
    try:
        import av  # noqa: PLC0415 (optional: the `tello` extra)
    except ImportError as exc:
        raise VideoUnavailable(MISSING_PYAV) from exc
    try:
        av.codec.Codec("libx264", "w")
    except Exception as exc:  # noqa: BLE001 (av raises its own error types for an unknown codec)
        raise VideoUnavailable(f"video needs PyAV built with libx264 (this PyAV has no H.264 encoder: {exc}); "
                               "pip install 'donify[tello]'") from exc
    return av


def check_address(address) -> tuple[str, int]:
    """(host, port) with a port 1–65535, else ValueError saying what was expected."""
    try:
        host, port = address
    except (TypeError, ValueError):
        raise ValueError(f"video: expected a (host, port) address, got {address!r}") from None
    if not isinstance(host, str) or not host or isinstance(port, bool) or not isinstance(port, int) \
            or not 1 <= port <= 65535:
        raise ValueError(f"video: expected a (host, port) address with a port from 1 to 65535, got {address!r}")
    return host, port


def datagrams(data: bytes, size: int = MAX_DATAGRAM) -> list[bytes]:
    """`data` cut into pieces of at most `size` bytes, in order."""
    return [data[i:i + size] for i in range(0, len(data), size)]


@dataclass
class StreamStats:
    """One stream's counts since it started (wall-clock seconds)."""

    started_s: float
    frames_drawn: int = 0  # pictures drawn and handed to the encoder
    frames_sent: int = 0  # pictures encoded and sent
    frames_skipped: int = 0  # the encoder still busy when the next one was due: not drawn
    datagrams: int = 0
    bytes_sent: int = 0
    largest_datagram: int = 0
    send_errors: int = 0
    draw_s: float = 0.0  # total main-thread time drawing and reading the pictures back
    encode_s: float = 0.0  # total encoder-thread time converting, encoding and sending

    def fps(self, now_s: float) -> float:
        return self.frames_sent / max(now_s - self.started_s, 1e-9)


class _Stream:
    """One drone's encoder (on its own thread, which PyAV lets run without the GIL) and socket."""

    def __init__(self, av, entity: int, address: tuple[str, int], fps: float, width: int, height: int,
                 bind: tuple[str, int] | None, now_s: float) -> None:
        self.av = av
        self.entity = entity
        self.address = address
        self.stats = StreamStats(started_s=now_s)
        self.next_due_s = self.stats.started_s
        self.last_drawn_s: float | None = None
        codec = av.CodecContext.create("libx264", "w")
        codec.width, codec.height = width, height
        codec.pix_fmt = "yuv420p"
        codec.time_base = Fraction(1, round(fps))
        codec.framerate = Fraction(round(fps), 1)
        codec.options = dict(X264_OPTIONS)
        self.codec = codec
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
            if bind is not None:
                self.socket.bind(bind)
        except OSError:
            self.socket.close()
            raise
        self._cond = threading.Condition()
        self._pending = None  # the next picture for the encoder
        self._working = False
        self._closing = False
        self._warned = False
        self._thread = threading.Thread(target=self._run, name=f"donify-video-{entity}", daemon=True)
        self._thread.start()

    def busy(self) -> bool:
        with self._cond:
            return self._pending is not None or self._working

    def offer(self, pixels) -> None:
        with self._cond:
            self._pending = pixels
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                pixels, self._pending = self._pending, None
                self._working = True
            try:
                start = time.perf_counter()
                self._encode(pixels)
                self.stats.encode_s += time.perf_counter() - start
            except Exception as exc:  # noqa: BLE001 (a broken encoder stops its stream, not the game)
                log.warning("video: the stream of drone %s stopped: %s: %s", self.entity, type(exc).__name__, exc)
                with self._cond:
                    self._closing = True
            finally:
                with self._cond:
                    self._working = False

    def _encode(self, pixels) -> None:
        if pixels.ndim == 2:  # I420 already (converted by the GPU)
            frame = self.av.VideoFrame.from_ndarray(pixels, format="yuv420p")
        else:
            frame = self.av.VideoFrame.from_ndarray(pixels, format="rgb24").reformat(format="yuv420p")
        frame.pts = self.stats.frames_sent
        for packet in self.codec.encode(frame):
            self._send(bytes(packet))
        self.stats.frames_sent += 1

    def _send(self, data: bytes) -> None:
        stats = self.stats
        for piece in datagrams(data):
            if self._closing:
                return
            try:
                self.socket.sendto(piece, self.address)
            except OSError as exc:  # the client went away, the network is down: keep trying
                stats.send_errors += 1
                if not self._warned:
                    self._warned = True
                    log.warning("video: cannot send to %s:%s: %s", *self.address, exc)
                continue
            stats.datagrams += 1
            stats.bytes_sent += len(piece)
            stats.largest_datagram = max(stats.largest_datagram, len(piece))

    @property
    def failed(self) -> bool:
        return self._closing and self._thread.is_alive() is False

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._pending = None
            self._cond.notify()
        self._thread.join()
        self.socket.close()


class VideoStreams:
    """The camera streams of one App's drones (see the module docstring).

    Args:
        app: the App whose drones stream (the Simulation's `app`).
        window: a pyglet window whose GL context to draw in (the game's); None: a hidden
            window of its own (headless EGL when there is no display).
        fps: pictures per second of wall time for each stream.
        size: (width, height) of the pictures.
        clock: the wall clock, seconds (tests give a fake one).
        convert: where RGB becomes I420: "gpu", "cpu" (the encoder thread), or "auto" (the
            GPU unless it is a software rasteriser).

    Raises `VideoUnavailable` (its message one line) when PyAV is missing or no GL context can
    be made.
    """

    def __init__(self, app, *, window=None, fps: float = FPS, size: tuple[int, int] = (WIDTH, HEIGHT),
                 clock=time.perf_counter, convert: str = "auto") -> None:
        if convert not in ("auto", "gpu", "cpu"):
            raise ValueError(f"video: convert: expected auto, gpu or cpu, got {convert!r}")
        self.av = load_av()
        self.app = app
        self.clock = clock
        self.fps = float(fps)
        self.period_s = 1.0 / self.fps
        self.width, self.height = size
        self.streams: dict[int, _Stream] = {}
        self._own_window = window is None
        self.window = window if window is not None else _hidden_window()
        try:
            self.camera = self._in_context(self._make_camera)
            self.gpu_convert = convert == "gpu" or (convert == "auto" and not self._in_context(_software_gl))
        except BaseException:
            if self._own_window:
                self.window.close()
            raise

    def _make_camera(self):
        from game.render.front_camera import FrontCamera  # noqa: PLC0415 (GL: after the headless choice)

        try:
            return FrontCamera(self.app, self.width, self.height)
        except (RuntimeError, OSError) as exc:  # a shader or framebuffer this GL refuses
            raise VideoUnavailable(f"video needs an OpenGL 3.3 context that can draw offscreen: {exc}") from exc

    def _in_context(self, work):
        """Run `work()` with this object's GL context current, then give the previous one back."""
        import pyglet  # noqa: PLC0415 (imported only once the display is chosen: _hidden_window)

        previous = pyglet.gl.current_context
        self.window.switch_to()
        try:
            return work()
        finally:
            if previous is not None and previous is not self.window.context:
                previous.set_current()

    # -- the streams ---------------------------------------------------------------------------
    def start(self, entity: int, address, *, bind: tuple[str, int] | None = None) -> None:
        """Stream drone `entity`'s camera to `address` = (client_ip, client_port) from now on;
        `bind`: the local address to send from (a drone's own address in a network namespace;
        default any). ValueError (one line) for a bad address or an entity that is no drone;
        OSError when the socket cannot be made."""
        host, port = check_address(address)
        if entity not in drones(self.app):
            raise ValueError(f"video: entity {entity!r} is not a drone of this game")
        try:
            address = (socket.gethostbyname(host), port)  # once: not a name lookup per datagram
        except (OSError, UnicodeError) as exc:
            raise ValueError(f"video: cannot find the IPv4 address of {host!r}: {exc}") from None
        self.stop(entity)
        self.streams[entity] = _Stream(self.av, entity, address, self.fps, self.width, self.height, bind,
                                       self.clock())
        log.info("video: drone %s streams to %s:%s", entity, *address)

    def stop(self, entity: int) -> None:
        """No more datagrams for drone `entity` once this returns (nothing if it did not stream)."""
        stream = self.streams.pop(entity, None)
        if stream is not None:
            stream.close()

    def streaming(self, entity: int) -> bool:
        return entity in self.streams

    def stats(self, entity: int) -> StreamStats:
        return self.streams[entity].stats

    def pump(self) -> None:
        """Once per game frame, on the GL thread: draw and hand over the most overdue stream's
        picture, if one is due and its encoder is free (see the module docstring)."""
        if not self.streams:
            return
        now = self.clock()
        for entity in [e for e, s in self.streams.items() if s.failed]:
            self.stop(entity)
        due = sorted((s for s in self.streams.values() if now >= s.next_due_s), key=lambda s: s.next_due_s)
        drawn = None
        for stream in due:
            if stream.busy():  # the encoder still works on the last picture: wait for it…
                if now < stream.next_due_s + self.period_s:
                    continue
                stream.stats.frames_skipped += 1  # …but not past the next picture's time: skipped
            elif drawn is None:  # the most overdue stream whose encoder is free
                drawn = stream
            else:
                continue  # stays due: drawn by a next pump
            stream.next_due_s += self.period_s
            if stream.next_due_s <= now:  # a stall, or a game slower than the stream: no catching up
                stream.next_due_s = now + self.period_s
        if drawn is not None:
            self._draw(drawn, now)

    def _draw(self, stream: _Stream, now: float) -> None:
        dt = 0.0 if stream.last_drawn_s is None else now - stream.last_drawn_s
        stream.last_drawn_s = now
        start = time.perf_counter()
        try:
            render = self.camera.render_i420 if self.gpu_convert else self.camera.render
            pixels = self._in_context(lambda: render(stream.entity, dt))
        except (KeyError, ValueError) as exc:  # the drone was removed meanwhile
            log.warning("video: drone %s is gone (%s): its stream stops", stream.entity, exc)
            self.stop(stream.entity)
            return
        except Exception as exc:  # noqa: BLE001 (a GL failure ends the stream, never the game)
            log.warning("video: the camera of drone %s could not be drawn (%s: %s): its stream stops",
                        stream.entity, type(exc).__name__, exc)
            self.stop(stream.entity)
            return
        stream.stats.draw_s += time.perf_counter() - start
        stream.stats.frames_drawn += 1
        stream.offer(pixels)

    def picture(self, entity: int, dt: float = 0.0):
        """What drone `entity`'s camera sees now: a (height, width, 3) uint8 RGB array, top row
        first (what a stream encodes). `dt`: seconds since the last picture (the rain falls)."""
        return self._in_context(lambda: self.camera.render(entity, dt))

    def close(self) -> None:
        """Stop every stream, free the GL objects and the context of its own (idempotent)."""
        for entity in list(self.streams):
            self.stop(entity)
        if self.camera is not None:
            try:
                self._in_context(self.camera.delete)
            except Exception:  # noqa: BLE001 (the context may already be gone)
                pass
            self.camera = None
        if self._own_window and self.window is not None:
            try:
                self.window.close()
            except Exception:  # noqa: BLE001
                pass
        self.window = None

    def __enter__(self) -> VideoStreams:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _software_gl() -> bool:
    """The current GL context is a software rasteriser's (llvmpipe…)."""
    import pyglet  # noqa: PLC0415
    from game.window import is_software_renderer  # noqa: PLC0415 (imports pyglet.window: after the display choice)

    return is_software_renderer(pyglet.gl.gl_info.get_renderer())


def _hidden_window():
    """A small hidden pyglet window whose GL 3.3 context draws the pictures (offscreen: its own
    framebuffer is never shown). Without a display pyglet is made headless (EGL) first."""
    if "pyglet.window" not in sys.modules and not has_display():
        use_headless()
    try:
        import game.render  # noqa: F401, PLC0415 (pyglet's GL options before pyglet.gl is imported)
        import pyglet  # noqa: PLC0415
        import pyglet.window  # noqa: PLC0415 (opens the display: after the headless choice)
    except Exception as exc:  # noqa: BLE001 (a display that fails as pyglet opens it)
        raise VideoUnavailable(f"video needs an OpenGL 3.3 context: {type(exc).__name__}: {exc}") from exc
    configs = (pyglet.gl.Config(double_buffer=False, depth_size=0, major_version=3, minor_version=3,
                                forward_compatible=True), None)
    problem: Exception | None = None
    for config in configs:
        try:
            return pyglet.window.Window(16, 16, visible=False, caption="Donify video", config=config)
        except Exception as exc:  # noqa: BLE001 (NoSuchConfig, ContextException, NoSuchDisplay, OSError…)
            problem = exc
    raise VideoUnavailable(f"video needs an OpenGL 3.3 context: {type(problem).__name__}: {problem}")

