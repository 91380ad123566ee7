"""What the render passes share: the frame they draw, the programs, the GL switches, the contract.

A *pass* draws one thing (the sky, the trail, the HUD panels…) and owns the GL objects that
thing needs. `Renderer` (renderer.py) keeps the frame and calls its passes in the order it
declares once. Each pass follows the `Pass` contract:

- `use_level(level)`: the active level changed (at start, after a hot reload or a swap);
  rebuild what depends on it. `level` is a `DrawnLevel`: the level's meshes built on the CPU,
  its lighting, its ground height.
- `prepare(frame)`: once per frame, in the RENDER stage after the fixed ticks; read the
  components the pass draws and upload what changed. `frame.pose` (the followed drone,
  interpolated; `frame.drone` its entity), `frame.fleet` (every drone: fleet.py) and
  `frame.view` (the camera's) are already this frame's.
- `draw(frame)`: issue the GL calls for the last prepared frame (a paused game draws
  without preparing). The renderer has set the pass's `state` (its `GlState`) before; a pass
  that changes a switch inside `draw` puts it back before returning. Every uniform a draw
  depends on is set right before it (`LitProgram.material`): nothing is inherited from the
  pass before.
- `delete()`: free its GL objects.

One shader program draws every 3D thing (`LitProgram`, shaders/lit.*) and one every 2D thing
(`Frame.ui`, shaders/ui.*); both are shared, so switching passes rarely switches programs. The
drones' parts are the exception: many copies of one mesh per draw, through the same lighting
with the model matrix per copy (instanced.py `FleetProgram`, which copies `LitProgram.scene`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from pyglet import gl
from pyglet.graphics.shader import ShaderProgram

from components.flight import RigidBody
from game.render import transforms as tf
from game.render.camera import View
from game.render.fleet import FleetFrame
from game.render.gl import GpuMesh, load_program
from game.render.level_model import LevelMeshes, build_level, ground_grid, rgb
from game.render.mesh import MeshBuilder
from systems.scene import SceneConfig
from world.level import ActiveLevel, Ground, Level, Lighting

LAYOUT = (3, 3, 4)  # lit vertices: position, normal, RGBA colour
IDENTITY = tf.gl_matrix(np.eye(4))  # the model matrix of what is already in world coordinates
WHITE = (1.0, 1.0, 1.0, 1.0)  # no tint: the vertex colours as they are
NO_FOG = (1e9, 2e9)  # a fog range no distance reaches


def static_mesh(builder: MeshBuilder) -> GpuMesh:
    """Upload once, indexed: vertices shared by neighbouring triangles are shaded once."""
    vertices, indices = builder.indexed()
    mesh = GpuMesh(LAYOUT)
    mesh.upload(vertices)
    mesh.upload_indices(indices)
    return mesh


class Program:
    """A shader program with the uniform values last set on it: a value set again unchanged
    costs no GL call."""

    def __init__(self, name: str, fragment: str | None = None, defines: tuple[str, ...] = ()) -> None:
        self.shader: ShaderProgram = load_program(name, fragment, defines)
        self._values: dict[str, object] = {}

    def __setitem__(self, name: str, value) -> None:
        if self._values.get(name) != value:
            self.shader[name] = value
            self._values[name] = value

    def delete(self) -> None:
        self.shader.delete()


class LitProgram(Program):
    """The program of every 3D thing, lit per vertex (shaders/lit.vert.glsl)."""

    def __init__(self) -> None:
        super().__init__("lit")
        self.fog_range = NO_FOG  # this frame's, for a pass that lifts the fog to put it back
        self.scene: dict[str, object] = {}  # this frame's camera and light uniforms (`light`)

    def light(self, view: View, lighting: Lighting, camera: str) -> None:
        """This frame's camera, sun, sky and fog."""
        # the map looks down from high up: no haze
        self.fog_range = (float(lighting.fog_start), float(lighting.fog_end)) if camera != "top" else NO_FOG
        self.scene = {
            "u_view_proj": tf.gl_matrix(view.view_projection),
            "u_eye": tuple(float(v) for v in view.eye),
            "u_sun_dir": tuple(lighting.sun_direction),
            "u_sun_colour": tuple(c * lighting.sun_intensity for c in rgb(lighting.sun_colour)),
            "u_ambient": float(lighting.ambient),
            "u_sky_colour": rgb(lighting.sky_zenith),
            "u_fog_colour": rgb(lighting.fog_colour),
            "u_fog_range": self.fog_range,
        }
        for name, value in self.scene.items():
            self[name] = value

    def material(self, model, tint, unlit: float, two_sided: float = 0.0) -> None:
        """What the next draw is: its model matrix (`tf.gl_matrix`), a tint multiplying the vertex
        colours, 1 for no lighting (lines, the sky, markers), 1 for thin parts lit from either side."""
        self["u_model"] = model
        self["u_tint"] = tint
        self["u_unlit"] = unlit
        self["u_two_sided"] = two_sided


@dataclass(frozen=True)
class GlState:
    """The fixed-function switches a pass draws with. The renderer goes from one pass's state
    to the next one's by changing only the switches that differ."""

    depth_test: bool
    depth_write: bool
    blend: bool  # alpha blending, source alpha over what is drawn
    cull_face: int | None  # gl.GL_BACK, gl.GL_FRONT, or None to draw both faces

    def apply(self, before: GlState | None) -> None:
        """Set the switches that differ from `before` (all of them when None: GL's state unknown)."""
        if before is None or before.depth_test != self.depth_test:
            (gl.glEnable if self.depth_test else gl.glDisable)(gl.GL_DEPTH_TEST)
        if before is None or before.depth_write != self.depth_write:
            gl.glDepthMask(gl.GL_TRUE if self.depth_write else gl.GL_FALSE)
        if before is None or before.blend != self.blend:
            if self.blend:
                gl.glEnable(gl.GL_BLEND)
                gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            else:
                gl.glDisable(gl.GL_BLEND)
        if before is None or before.cull_face != self.cull_face:
            if self.cull_face is None:
                gl.glDisable(gl.GL_CULL_FACE)
            else:
                if before is None or before.cull_face is None:
                    gl.glEnable(gl.GL_CULL_FACE)
                gl.glCullFace(self.cull_face)


# the states of the frame, in the order the passes use them
UNDERLAY = GlState(depth_test=False, depth_write=True, blend=False, cull_face=gl.GL_BACK)  # under everything
OPAQUE = GlState(depth_test=True, depth_write=True, blend=False, cull_face=gl.GL_BACK)
BACKDROP = GlState(depth_test=True, depth_write=False, blend=False, cull_face=gl.GL_FRONT)  # seen from inside
BLENDED = GlState(depth_test=True, depth_write=False, blend=True, cull_face=None)
OVERLAY = GlState(depth_test=False, depth_write=False, blend=True, cull_face=None)  # over the scene
SCREEN = GlState(depth_test=False, depth_write=True, blend=True, cull_face=None)  # 2D, in window pixels


@dataclass
class DronePose:
    """Where the drone is drawn: between its last two ticks, by the clock's alpha."""

    position: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.eye(4))  # 4×4, body → world
    model: np.ndarray = field(default_factory=lambda: np.eye(4))  # rotation and position

    def interpolate(self, body: RigidBody, alpha: float) -> None:
        """`previous_position` → `position` linearly; `previous_quaternion` → `quaternion` by a
        normalised linear blend (the ticks are 1/240 s apart: a slerp would draw the same)."""
        prev, pos = body.previous_position, body.position
        self.position = np.array([prev[i] + (pos[i] - prev[i]) * alpha for i in range(3)])
        q0, q1 = body.previous_quaternion, body.quaternion
        sign = -1.0 if float(np.dot(q0, q1)) < 0.0 else 1.0  # the shorter way round
        q = q0 + (sign * q1 - q0) * alpha
        self.rotation = tf.rotation_from_quaternion(q / np.linalg.norm(q))
        self.model = self.rotation.copy()
        self.model[:3, 3] = self.position


@dataclass
class DrawnLevel:
    """The active level as the passes draw it."""

    meshes: LevelMeshes  # built on the CPU (here, or by a hot reload's worker)
    lighting: Lighting
    ground_z: float  # m, the ground's surface

    @classmethod
    def of(cls, level, cleared: bool = False, meshes: LevelMeshes | None = None) -> "DrawnLevel":
        """`level` (None: the open world) as the passes draw it, from `meshes` when they were
        built already. `cleared`: the level was taken away while the scene still has one — a
        plain ground plane is drawn, as the collision still has one."""
        if level is None and cleared:
            meshes = build_level(None)
            g = Ground()
            meshes.ground = ground_grid(g.centre, g.size, g.height, rgb(g.colour))
            meshes.ground_is_floor = True
        elif meshes is None:
            meshes = build_level(level)
        if level is None:
            return cls(meshes, Lighting(), Ground().height)
        return cls(meshes, level.lighting, level.ground.height)


class FollowedLevel:
    """The active level as the passes draw it, for a view of the world (the window's, a drone's
    front camera): made again, and handed to every pass, when the level changed (a swap, a hot
    reload)."""

    def __init__(self, app) -> None:
        self.app = app
        self.drawn: DrawnLevel | None = None
        self._key: tuple = ()  # the ActiveLevel and its version `drawn` was made for

    def follow(self, passes, meshes_for: Callable[[Level | None], LevelMeshes | None] | None = None) -> DrawnLevel:
        """The active level as drawn, after giving it to `passes` if it changed. `meshes_for(level)`:
        meshes already built for the new level, or None to build them here."""
        active = self.app.resource(ActiveLevel)
        key = (id(active), active.version)
        if key != self._key:
            self._key = key
            meshes = meshes_for(active.level) if meshes_for is not None else None
            cleared = self.app.resource(SceneConfig).level is not None
            self.drawn = DrawnLevel.of(active.level, cleared=cleared, meshes=meshes)
            for render_pass in passes:
                render_pass.use_level(self.drawn)
        return self.drawn


@dataclass
class Frame:
    """One frame as the passes see it. The Renderer refreshes it: in `prepare` the time step,
    the pose and the camera; in `draw` the camera again (it may have been switched, or the
    window resized, since)."""

    lit: LitProgram
    ui: Program
    look: Callable[[], View]  # the active camera's view now
    dt: float = 0.0  # s of game time since the last prepared frame
    pose: DronePose = field(default_factory=DronePose)  # the followed drone's
    drone: int | None = None  # the followed drone's entity (None: the player's)
    fleet: FleetFrame = field(default_factory=FleetFrame)  # every drone (game/render/fleet.py)
    camera: str = "chase"  # the active camera: "chase", "fpv" or "top"
    fb_width: int = 1  # the framebuffer, GL pixels
    fb_height: int = 1
    ui_projection: tuple[float, ...] = IDENTITY  # window pixels (the HUD's) → clip space
    show_drone: bool = True  # tests hide the drone, or the HUD, to compare frames
    show_hud: bool = True
    _view: View | None = field(default=None, init=False, repr=False)
    _program: ShaderProgram | None = field(default=None, init=False, repr=False)

    @property
    def view(self) -> View:
        """The camera's view, computed once per `camera_moved` and only when a pass asks."""
        if self._view is None:
            self._view = self.look()
        return self._view

    def camera_moved(self, camera: str) -> None:
        """The cameras were updated or switched, or the window resized: `camera` is active."""
        self.camera = camera
        self._view = None

    def use(self, program: Program) -> None:
        """Make `program` current, unless it already is."""
        if self._program is not program.shader:
            program.shader.use()
            self._program = program.shader

    def use_ui(self) -> ShaderProgram:
        """The 2D program, current, in window pixels, glyphs from texture unit 0: what every
        screen-space pass draws its `UiLayer`s with (`layer.draw(frame.use_ui())`)."""
        ui = self.ui
        self.use(ui)
        ui["u_projection"] = self.ui_projection
        ui["u_glyphs"] = 0
        return ui.shader

    def forget_program(self) -> None:
        """A new frame: GL's current program is unknown again."""
        self._program = None


class Pass:
    """One thing drawn (see the module docstring for the contract). A pass gives `draw` and its
    `state`; `use_level`, `prepare` and `delete` do nothing unless it needs them to."""

    state: GlState = OPAQUE

    def use_level(self, level: DrawnLevel) -> None:
        pass

    def prepare(self, frame: Frame) -> None:
        pass

    def draw(self, frame: Frame) -> None:
        raise NotImplementedError

    def delete(self) -> None:
        pass


def draw_world(frame: Frame, passes, lighting: Lighting, front_face: int = gl.GL_CCW) -> None:
    """The world as a camera sees it — the window's view, a drone's front camera: clear to the
    horizon colour, then every pass in order, each in its GL state. `front_face`: GL_CW for a
    picture drawn upside down (read back top row first)."""
    horizon = rgb(lighting.sky_horizon)  # the sky below the sky cap (passes/sky.py)
    gl.glClearColor(horizon[0], horizon[1], horizon[2], 1.0)
    gl.glDepthMask(gl.GL_TRUE)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glFrontFace(front_face)
    frame.forget_program()
    frame.use(frame.lit)
    frame.lit.light(frame.view, lighting, frame.camera)
    state: GlState | None = None
    for render_pass in passes:
        if render_pass.state is not state:
            render_pass.state.apply(state)
            state = render_pass.state
        render_pass.draw(frame)
    gl.glBindVertexArray(0)
    gl.glDisable(gl.GL_BLEND)
    gl.glFrontFace(gl.GL_CCW)
