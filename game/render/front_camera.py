"""A drone's front camera, drawn offscreen: the picture the Tello's own camera would send.

`FrontCamera(app)` draws what the camera on a drone's nose sees — the level, the sky, the
course gates, the rain, every other drone (body, propellers, in its colour) and the drones'
shadows — with the game's own passes (passes/level.py, sky.py, gates.py, rain.py, drone.py,
props_and_shadow.py: the drones as the window draws them) and its lit program,
into a framebuffer of its own (a colour texture, a depth renderbuffer), never a window. No HUD,
no menu, no trail or route: a camera sees the world only.

`render(entity)` returns the frame as a (height, width, 3) uint8 RGB array, top row first,
with the drone `entity` interpolated between its last two ticks by the clock's alpha, as the
window draws it; `render_i420(entity)` the same picture converted on the GPU to the I420
bytes an H.264 encoder takes (`I420`, shaders/i420.*: BT.601 limited range, 2×2 chroma). The
drone carrying the camera is not drawn (the camera sits in its nose). The picture is drawn
upside down so that GL's bottom-first rows read back as the picture's top-first ones.

The mount: the lens on the nose of the drone model (`DroneModel.camera_position_m`), looking
along body +X, level with the body and fixed to it (the Tello has no gimbal: the picture
tilts as the drone does). The field of view is the Tello's 82.6° diagonal at 4:3, which is
`FOV_Y_DEG` ≈ 55.6° vertically and ≈ 70.2° horizontally.

A GL 3.3 context must be current when it is made, rendered or deleted (game/tello/video.py
makes one of its own).
"""

from __future__ import annotations

import ctypes
import math

import numpy as np
from pyglet import gl

from components.flight import RigidBody
from game.render.camera import FirstPersonCamera, View
from game.render.drone_model import DroneModel, build_drone
from game.render.fleet import Fleet
from game.render.frame import DrawnLevel, FollowedLevel, Frame, LitProgram, Pass, Program, draw_world
from game.render.passes.drone import DronePass
from game.render.passes.fleet import FleetDrawing
from game.render.passes.gates import GatesPass
from game.render.passes.level import GroundFirstPass, LevelPass
from game.render.passes.props_and_shadow import PropsAndShadowPass, shadow_disc
from game.render.passes.rain import RainPass
from game.render.passes.sky import SkyPass
from game.render.rain_light import rain_lighting
from systems.course import CourseState
from systems.scene import SceneConfig, drone_components
from world.weather import Weather

WIDTH, HEIGHT = 960, 720  # the Tello's stream
DIAGONAL_FOV_DEG = 82.6  # the Tello's lens


def vertical_fov_deg(diagonal_deg: float = DIAGONAL_FOV_DEG, width: int = WIDTH, height: int = HEIGHT) -> float:
    """The vertical field of view of a pinhole camera with this diagonal one and aspect."""
    half_diagonal = math.tan(math.radians(diagonal_deg) / 2.0)
    return math.degrees(2.0 * math.atan(half_diagonal * height / math.hypot(width, height)))


FOV_Y_DEG = vertical_fov_deg()
FLIP_Y = np.diag((1.0, -1.0, 1.0, 1.0))  # clip space upside down


class FrontCamera:
    """Offscreen pictures of the drones' front cameras for one App.

    Args:
        app: the App whose world is drawn (its SceneConfig gives the drone model).
        width, height: the picture in pixels (the Tello's 960×720 by default).
        fov_y_deg: vertical field of view (the Tello's by default).
    """

    def __init__(self, app, width: int = WIDTH, height: int = HEIGHT, fov_y_deg: float = FOV_Y_DEG) -> None:
        self.app = app
        self.width, self.height = int(width), int(height)
        self.drone: DroneModel = build_drone(app.resource(SceneConfig).vehicle)
        self.camera = FirstPersonCamera(self.drone.camera_position_m, fov_y_deg=fov_y_deg)
        self.frame = Frame(lit=LitProgram(), ui=Program("ui"), look=self._look)
        self.frame.camera = "fpv"
        self.frame.fb_width, self.frame.fb_height = self.width, self.height
        self.frame.show_hud = False
        self.level = LevelPass()
        # the drones as the window draws them (game/render/fleet.py, passes/fleet.py): the one
        # carrying the camera is the followed drone, which a first-person camera does not see
        self.fleet = Fleet(self.drone, app.resource(SceneConfig).vehicle)
        self.drawing = FleetDrawing(self.fleet, {"body": lambda m: m.body, "far_body": lambda m: m.far_body,
                                                 "prop": lambda m: m.prop, "blur": lambda m: m.blur,
                                                 "shadow": lambda m: shadow_disc()})
        passes: list[Pass] = [GroundFirstPass(self.level), DronePass(self.drawing), self.level]
        if app.try_resource(CourseState) is not None:
            passes.append(GatesPass(app))
        passes += [SkyPass(app), PropsAndShadowPass(self.drawing), RainPass(app)]
        self.passes: tuple[Pass, ...] = tuple(passes)
        self.followed_level = FollowedLevel(app)
        self.drawn_level: DrawnLevel | None = None
        self.target = Offscreen(self.width, self.height)
        self.i420 = I420(self.target)

    def _look(self) -> View:
        """The camera's view, drawn upside down (and so wound the other way: `draw`): GL's rows
        come bottom first, and read so they are the picture top row first, with no copy."""
        view = self.camera.view(self.width / self.height)
        view.projection = FLIP_Y @ view.projection
        return view

    def _follow_level(self) -> None:
        self.drawn_level = self.followed_level.follow(self.passes)

    def render(self, entity: int, dt: float = 0.0) -> np.ndarray:
        """The picture of `entity`'s front camera now: (height, width, 3) uint8 RGB, top row
        first, a new array each time. `dt`: seconds since its last picture (the rain falls by it)."""
        self.prepare(entity, dt)
        self.draw()
        return self.read()

    def render_i420(self, entity: int, dt: float = 0.0) -> np.ndarray:
        """The same picture as the bytes of an I420 frame (`I420.convert`): what the camera
        stream encodes."""
        self.prepare(entity, dt)
        self.draw()
        return self.i420.convert()

    def prepare(self, entity: int, dt: float = 0.0) -> None:
        self._follow_level()
        (body,) = drone_components(self.app, RigidBody, entity=entity)
        frame = self.frame
        frame.dt = dt
        alpha = self.app.clock.alpha
        frame.fleet = self.fleet.update(self.app, alpha, dt, entity)
        frame.drone = entity
        frame.pose.interpolate(body, alpha)
        self.camera.update(dt, frame.pose.position, frame.pose.rotation)
        frame.camera_moved("fpv")
        for render_pass in self.passes:
            render_pass.prepare(frame)

    def draw(self) -> None:
        frame = self.frame
        self.target.bind()
        lighting = rain_lighting(self.drawn_level.lighting, self.app.resource(Weather).rain_mm_h)
        draw_world(frame, self.passes, lighting, gl.GL_CW)  # drawn upside down (`_look`): front faces wind clockwise

    def read(self) -> np.ndarray:
        """The drawn picture, a new (height, width, 3) RGB array, top row first (waits for the
        rasteriser)."""
        return self.target.read()

    def delete(self) -> None:
        for render_pass in self.passes:
            render_pass.delete()
        self.drawing.delete()
        self.frame.lit.delete()
        self.frame.ui.delete()
        self.i420.delete()
        self.target.delete()


def _framebuffer(attachments) -> gl.GLuint:
    """A framebuffer with `attachments` ((attachment point, kind, GL name)), checked complete."""
    fbo = gl.GLuint()
    gl.glGenFramebuffers(1, ctypes.byref(fbo))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    for point, kind, name in attachments:
        if kind == gl.GL_TEXTURE_2D:
            gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, point, gl.GL_TEXTURE_2D, name, 0)
        else:
            gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, point, gl.GL_RENDERBUFFER, name)
    complete = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) == gl.GL_FRAMEBUFFER_COMPLETE
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    if not complete:
        gl.glDeleteFramebuffers(1, ctypes.byref(fbo))
        raise RuntimeError("offscreen framebuffer not supported")
    return fbo


def _storage(kind: int, internal_format: int, width: int, height: int) -> gl.GLuint:
    """A texture (GL_TEXTURE_2D, nearest, no mipmaps) or a renderbuffer (GL_RENDERBUFFER)."""
    name = gl.GLuint()
    if kind == gl.GL_TEXTURE_2D:
        gl.glGenTextures(1, ctypes.byref(name))
        gl.glBindTexture(gl.GL_TEXTURE_2D, name)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, internal_format, width, height, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, None)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    else:
        gl.glGenRenderbuffers(1, ctypes.byref(name))
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, name)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, internal_format, width, height)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
    return name


def _read(fbo, width: int, height: int, channels: int, fmt: int) -> np.ndarray:
    """A framebuffer's colour as a new (height, width[, channels]) uint8 array in GL's row
    order (bottom row first); then draws to the window again."""
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbo)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    out = np.empty((height, width, channels) if channels > 1 else (height, width), np.uint8)
    gl.glReadPixels(0, 0, width, height, fmt, gl.GL_UNSIGNED_BYTE, out.ctypes.data_as(ctypes.c_void_p))
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    return out


class Offscreen:
    """Where the picture is drawn: an RGBA8 colour texture (sampled by `I420`) and a 24-bit
    depth renderbuffer. `read` gives the picture as RGB."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.colour = _storage(gl.GL_TEXTURE_2D, gl.GL_RGBA8, width, height)
        self.depth = _storage(gl.GL_RENDERBUFFER, gl.GL_DEPTH_COMPONENT24, width, height)
        try:
            self.fbo = _framebuffer(((gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, self.colour),
                                     (gl.GL_DEPTH_ATTACHMENT, gl.GL_RENDERBUFFER, self.depth)))
        except RuntimeError:
            self.fbo = None
            self._free_storage()
            raise

    def bind(self) -> None:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        gl.glViewport(0, 0, self.width, self.height)

    def read(self) -> np.ndarray:
        return _read(self.fbo, self.width, self.height, 3, gl.GL_RGB)

    def _free_storage(self) -> None:
        gl.glDeleteTextures(1, ctypes.byref(self.colour))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.depth))

    def delete(self) -> None:
        if self.fbo is not None:
            gl.glDeleteFramebuffers(1, ctypes.byref(self.fbo))
            self._free_storage()
            self.fbo = None


# BT.601, limited range (Y 16–235, U and V 16–240): what an H.264 decoder assumes when the
# stream does not say (x264 writes no colour description unless told to)
Y_WEIGHTS = (65.481, 128.553, 24.966)
U_WEIGHTS = (-37.797, -74.203, 112.0)
V_WEIGHTS = (112.0, -93.786, -18.214)


class I420:
    """The drawn picture converted on the GPU to the bytes an H.264 encoder takes: I420 (YUV
    4:2:0 planar, BT.601 limited range, each chroma sample the mean of its 2×2 pixels), drawn
    into a target of width × 3·height/2 bytes laid out as they lie in memory — the Y plane's
    rows, then U's (two rows of width/2 to a row of the target), then V's — four bytes to an
    RGBA8 pixel (a software rasteriser's fast path, a quarter of the fragments), and read
    back: half the bytes of RGB, and no conversion left for the CPU.

    Five rectangles of the target, each drawn by shaders/i420.* with its own mapping to the
    source picture: Y; then U's even rows on the left half and its odd rows on the right
    half of the next height/4 rows; then V's the same way."""

    def __init__(self, source: Offscreen) -> None:
        w, h = source.width, source.height
        if w % 8 or h % 4:
            raise ValueError(f"I420 needs a width a multiple of 8 and a height of 4, got {w}x{h}")
        self.source = source
        self.width, self.height = w, h * 3 // 2
        q = h // 4
        # (viewport in target pixels of 4 bytes: x, y, width, height; scale, bias, weights,
        # offset). The shader gives byte (x, y) of the target (its centre x + ½, y + ½) the
        # source point (x + ½, y + ½) · scale + bias: for Y the pixel's centre; chroma sample
        # (cx, cy) = (x − x0, 2(y − y0) + odd) has its 2×2 block's shared corner at (2cx + 1, 2cy + 1)
        self.rects = [(0, 0, w // 4, h, (1.0, 1.0), (0.0, 0.0), Y_WEIGHTS, 16.0)]
        for y0, weights in ((h, U_WEIGHTS), (h + q, V_WEIGHTS)):
            for x0, odd in ((0, 0), (w // 2, 1)):
                self.rects.append((x0 // 4, y0, w // 8, q, (2.0, 4.0), (-2.0 * x0, -4.0 * y0 - 1.0 + 2.0 * odd),
                                   weights, 128.0))
        self.program = Program("i420")
        self.target = _storage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, self.width // 4, self.height)
        try:
            self.fbo = _framebuffer(((gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, self.target),))
        except RuntimeError:
            self.fbo = None
            gl.glDeleteRenderbuffers(1, ctypes.byref(self.target))
            self.program.delete()
            raise
        self.vao = gl.GLuint()  # core profile draws with a vertex array bound, even an empty one
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glBindTexture(gl.GL_TEXTURE_2D, source.colour)  # the blocks' means come from linear filtering
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)

    def convert(self) -> np.ndarray:
        """The source's picture as a new (3·height/2, width) uint8 array: the Y plane's rows,
        then U's and V's, as `av.VideoFrame.from_ndarray(…, format="yuv420p")` takes them."""
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        for switch in (gl.GL_DEPTH_TEST, gl.GL_BLEND, gl.GL_CULL_FACE):
            gl.glDisable(switch)
        program = self.program
        program.shader.use()
        program["u_rgb"] = 0
        program["u_size"] = (float(self.source.width), float(self.source.height))
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.source.colour)
        gl.glBindVertexArray(self.vao)
        for x, y, width, height, scale, bias, weights, offset in self.rects:
            gl.glViewport(x, y, width, height)
            program["u_scale"] = scale
            program["u_bias"] = bias
            program["u_weights"] = weights
            program["u_offset"] = offset
            gl.glDrawArrays(gl.GL_TRIANGLES, 0, 3)
        gl.glBindVertexArray(0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        program.shader.stop()
        return _read(self.fbo, self.width // 4, self.height, 4, gl.GL_RGBA).reshape(self.height, self.width)

    def delete(self) -> None:
        if self.fbo is not None:
            gl.glDeleteFramebuffers(1, ctypes.byref(self.fbo))
            gl.glDeleteRenderbuffers(1, ctypes.byref(self.target))
            gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
            self.program.delete()
            self.fbo = None
