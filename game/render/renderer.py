"""The renderer: prepares a frame from the drone's components and draws it with GL 3.3 core.

`prepare(dt)` runs in the RENDER stage after the frame's fixed ticks: it interpolates the
drone's position and attitude between the last two ticks (`RigidBody.previous_position` →
`position`, `previous_quaternion` → `quaternion`, normalised linear blend, by the clock's
`alpha`), turns each propeller by its actual ω·dt, moves the cameras, refreshes the
HUD and the trail, and rebuilds the level's meshes if the level was swapped. `draw()` issues
the GL calls for the last prepared frame, so a paused game keeps drawing without stepping.

Draw order (each draw sets its own model matrix and tint; nothing is inherited), chosen for
a software renderer, where the cost is per pixel and per draw call:
ground and road (without the depth test, when nothing lies under them: see
level_model.py) → HUD panels (opaque, at the nearest depth, so the scene behind them is never
shaded) → drone body → decals (polygon offset, no lift) → level solids → (ground, if not
drawn first) → sky cap (only where nothing was drawn) → blended: one batch of blob shadow +
propellers + blur discs placed on the CPU, trail, route, rain, map marker → HUD text → menus.

One shader program draws every 3D thing, lit per vertex (see shaders/lit.vert.glsl).
"""

from __future__ import annotations

import math
import random

import numpy as np
from pyglet import gl

from components.flight import Controller, RigidBody, Rotors
from components.world import Collider, Trail
from game.render import transforms as tf
from game.render.camera import CameraRig, ChaseCamera, FirstPersonCamera, MapCamera, level_raycast
from game.render.drone_model import build_drone
from game.render.gl import GpuMesh, RenderTarget, load_program, read_pixels
from game.render.hud import Hud
from game.render.level_model import build_level, ground_grid, rgb
from game.render.mesh import VERTEX_FLOATS, MeshBuilder, circle
from game.render.text import Font, UiLayer
from game.scene import SceneConfig, drone_components
from systems.menu import Menu
from world.geometry import ActiveLevel
from world.level import Ground, Lighting
from world.weather import Weather

LAYOUT = (3, 3, 4)
SMALL_FONT = "DejaVu Sans Mono"  # readouts: fixed width, digits do not dance
LARGE_FONT = "DejaVu Sans"
BLUR_START_RPM = 2500.0  # below this the blades read as blades
BLUR_FULL_RPM = 9000.0  # above this they read as a disc
TRAIL_COLOUR = (1.0, 0.55, 0.15)
ROUTE_COLOUR = (0.3, 0.9, 1.0)
MARKER_COLOUR = (1.0, 0.85, 0.1)
DECAL_OFFSET_UNITS = 4.0  # polygon offset pulling markings and windows in front of their surface
RAIN_DROPS_MAX = 1500
RAIN_BOX_M = (16.0, 16.0, 10.0)  # around the camera
RAIN_FALL_M_S = 7.0
IDENTITY = tf.gl_matrix(np.eye(4))  # the model matrix of what is already in world coordinates


def _smoothstep(edge0: float, edge1: float, x: float) -> float:
    t = min(1.0, max(0.0, (x - edge0) / (edge1 - edge0)))
    return t * t * (3.0 - 2.0 * t)


class _Uniforms:
    """Sets a program's uniforms, skipping values that did not change since the last set."""

    def __init__(self, program) -> None:
        self.program = program
        self.cache: dict[str, object] = {}

    def __setitem__(self, name: str, value) -> None:
        if self.cache.get(name) != value:
            self.program[name] = value
            self.cache[name] = value


class Renderer:
    """Draws one App's drone and level.

    Args:
        app: the App (its SceneConfig, drone, menu, weather, level).
        width, height: window size in pixels (HUD coordinates).
        telemetry: a callable giving the HUD its `Telemetry` record.
        camera: "chase", "fpv" or "top".
        language: "en" or "fr" for the HUD.
    """

    def __init__(self, app, width: int, height: int, telemetry, camera: str = "chase", language: str = "en") -> None:
        self.app = app
        self.telemetry = telemetry
        config = app.resource(SceneConfig)
        self.vehicle = config.vehicle
        self.lit = load_program("lit")
        self.ui = load_program("ui")
        self.panels = load_program("panels")
        self.u = _Uniforms(self.lit)
        self.u_ui = _Uniforms(self.ui)
        self.u_panels = _Uniforms(self.panels)

        self.drone = build_drone(self.vehicle)
        self.body_mesh = self._static(self.drone.body)
        self._prop_vertices = self.drone.prop.array()
        self._blur_vertices = self.drone.blur.array()
        self._shadow_vertices = _soft_disc().array()
        self._shadow_vertices[:, 6:9] = 0.0
        self._motor_frames = np.array([tf.translation(*centre) for centre in self.drone.prop_centres_m])
        self.effects_mesh = GpuMesh(LAYOUT, capacity=4096, dynamic=True)
        self.marker_mesh = self._static(_marker())
        self.sky_mesh = GpuMesh(LAYOUT)
        self.level_meshes: list[GpuMesh] = []
        self.ground_mesh: GpuMesh | None = None
        self.decal_mesh: GpuMesh | None = None
        self.route_mesh = GpuMesh(LAYOUT, dynamic=True)
        self.trail_mesh = GpuMesh(LAYOUT, capacity=1200, dynamic=True)
        self.rain_mesh = GpuMesh(LAYOUT, capacity=2 * RAIN_DROPS_MAX, dynamic=True)
        self._level_key: object = ()
        self._prepared: tuple | None = None  # (level, LevelMeshes built off the frame thread)
        self.ground_first = False  # the level's ground can be painted first (see draw)
        self.ground_z = 0.0  # m, the ground's surface
        self._trail_key: tuple = ()
        self.route: list[tuple[float, float, float]] = []
        self._lighting = None

        self.cameras = CameraRig(ChaseCamera(raycast=level_raycast(self._geometry)),
                                 FirstPersonCamera(self.drone.camera_position_m), MapCamera(), active=camera)
        self._fonts: dict[tuple[float, bool], Font] = {}

        def fonts(size: float, bold: bool) -> Font:
            key = (size, bold)
            if key not in self._fonts:
                self._fonts[key] = Font(LARGE_FONT if bold else SMALL_FONT, size, bold=bold)
            return self._fonts[key]

        self.hud = Hud(fonts, max_rpm=self.vehicle.max_motor_speed_rad_s * 60.0 / (2.0 * math.pi))
        self._panel_cache: RenderTarget | None = None  # the HUD panels with their readouts
        self._panel_cache_valid = False
        self._panel_quads = UiLayer(None)
        self._panel_rects: list = []  # what `_panel_quads` holds
        self.language = language
        self.pause = None  # the window's PausePanel, drawn over everything when open
        self.bindings: list[tuple[str, str]] = []
        self.show_drone = True  # tests hide it to compare
        self.show_hud = True

        self.position = np.zeros(3)
        self.rotation = np.eye(4)
        self.model = np.eye(4)
        self.prop_angles = [0.0, 0.0, 0.0, 0.0]
        self.rpm = [0.0, 0.0, 0.0, 0.0]
        self.support_z: float | None = None
        self.rain_level = 0.0
        self._rain = np.zeros((RAIN_DROPS_MAX, 3))
        self._rng = random.Random(0)
        self._rain_origin = np.zeros(3)
        self.width = self.height = 1
        self.fb_width = self.fb_height = 1
        self.prepared = False
        self.resize(width, height)

    # -- building ------------------------------------------------------------------------------
    @staticmethod
    def _static(builder: MeshBuilder) -> GpuMesh:
        """Upload once, indexed: vertices shared by neighbouring triangles are shaded once."""
        vertices, indices = builder.indexed()
        mesh = GpuMesh(LAYOUT)
        mesh.upload(vertices)
        mesh.upload_indices(indices)
        return mesh

    def _active_level(self):
        active = self.app.try_resource(ActiveLevel)
        if active is not None:
            return active.level, ("active", id(active), active.version)
        level = self.app.resource(SceneConfig).level
        return (level if hasattr(level, "ground") else None), ("config", id(level))

    def _geometry(self):
        active = self.app.try_resource(ActiveLevel)
        return active.geometry if active is not None else None

    def _rebuild_level(self) -> None:
        level, key = self._active_level()
        if key == self._level_key:
            return
        self._level_key = key
        for mesh in self.level_meshes + [m for m in (self.ground_mesh, self.decal_mesh) if m is not None]:
            mesh.delete()
        if level is None and self.app.resource(SceneConfig).level is not None:
            # a world with ground but no level data: a plain ground plane at z = 0
            meshes = build_level(None)
            g = Ground()
            meshes.ground = ground_grid(g.centre, g.size, g.height, rgb(g.colour))
            meshes.ground_is_floor = True
        elif self._prepared is not None and self._prepared[0] is level:
            meshes = self._prepared[1]
        else:
            meshes = build_level(level)
        self._prepared = None
        self.level_meshes = [self._static(meshes.solid)]
        self.ground_mesh = None
        if meshes.ground is not None:
            self.ground_mesh = GpuMesh(LAYOUT)
            self.ground_mesh.upload(meshes.ground[0])
            self.ground_mesh.upload_indices(meshes.ground[1])
        self.decal_mesh = self._static(meshes.decals)
        self.ground_first = meshes.ground_is_floor
        self.ground_z = level.ground.height if level is not None else Ground().height
        self.route = meshes.route_m
        self.route_mesh.upload(_line_vertices(np.array(self.route).reshape(-1, 3), ROUTE_COLOUR, 0.9)
                               if self.route else np.zeros((0, VERTEX_FLOATS), np.float32))
        self._lighting = level.lighting if level is not None else Lighting()
        self.sky_mesh.upload(_sky_dome(self._lighting).array())

    def use_prepared_meshes(self, level, meshes) -> None:
        """When `level` becomes the active level, draw it from `meshes` (level_model's
        `prepare_level_meshes`, built by a hot reload's worker) instead of building them here."""
        self._prepared = (level, meshes)

    # -- sizing --------------------------------------------------------------------------------
    def resize(self, width: int, height: int, fb_width: int | None = None, fb_height: int | None = None) -> None:
        """New window size (HUD pixels) and framebuffer size (GL pixels; HiDPI may differ)."""
        self.width, self.height = max(1, int(width)), max(1, int(height))
        self.fb_width = max(1, int(fb_width if fb_width is not None else width))
        self.fb_height = max(1, int(fb_height if fb_height is not None else height))
        self.hud.layout(self.width, self.height, self.language)
        self._refresh_hud_now()

    def cycle_camera(self) -> str:
        """RB / C: chase → first person → map; the HUD says so on the next frame."""
        name = self.cameras.cycle()
        self.hud.refresh_soon()
        return name

    def select_camera(self, name: str) -> None:
        self.cameras.select(name)
        self.hud.refresh_soon()

    def set_language(self, language: str) -> None:
        self.language = language
        self.hud.layout(self.width, self.height, language)
        self._refresh_hud_now()

    def _refresh_hud_now(self) -> None:
        if self.prepared:
            self.hud.refresh(self.telemetry(), self._hud_extra())

    @property
    def aspect(self) -> float:
        return self.width / self.height

    # -- per frame -----------------------------------------------------------------------------
    def prepare(self, dt: float) -> None:
        """Read the components for this frame (the RENDER stage calls it after the ticks)."""
        self._rebuild_level()
        body, rotors, collider, trail = drone_components(self.app, RigidBody, Rotors, Collider, Trail)
        alpha = self.app.clock.alpha
        prev, pos = body.previous_position, body.position
        self.position = np.array([prev[i] + (pos[i] - prev[i]) * alpha for i in range(3)])
        q0, q1 = body.previous_quaternion, body.quaternion
        sign = -1.0 if float(np.dot(q0, q1)) < 0.0 else 1.0  # the shorter way round
        q = q0 + (sign * q1 - q0) * alpha
        self.rotation = tf.rotation_from_quaternion(q / np.linalg.norm(q))
        self.model = self.rotation.copy()
        self.model[:3, 3] = self.position
        tau = 2.0 * math.pi
        for i, omega in enumerate(rotors.speed_rad_s):
            self.prop_angles[i] = (self.prop_angles[i] + self.drone.spin[i] * omega * dt) % tau
            self.rpm[i] = omega * 60.0 / tau
        self.support_z = collider.support_height_m
        if trail.points:
            key = (len(trail.points), trail.points[-1], trail.points[0])
        else:
            key = ()
        if key != self._trail_key:
            self._trail_key = key
            points = np.array(trail.points, dtype=float).reshape(-1, 3)
            self.trail_mesh.upload(_line_vertices(points, TRAIL_COLOUR, None))
        self.cameras.update(dt, self.position, self.rotation)
        self._prepare_rain(dt)
        self.prepared = True
        if self.show_hud:
            self.hud.update(dt, self.telemetry, self._hud_extra())

    def _hud_extra(self) -> dict:
        weather = self.app.try_resource(Weather)
        extra: dict = {"camera": self.cameras.active, "mission_total": len(self.route),
                       "distance_to": self.mission_distance}
        if weather is not None:
            extra["wind"] = tuple(weather.wind_now_m_s)
            note = getattr(weather, "hud_note", None)
            extra["rain_note"] = note() if callable(note) else ""
        return extra

    def mission_distance(self, index: int) -> float | None:
        if 0 <= index < len(self.route):
            return float(np.linalg.norm(np.asarray(self.route[index]) - self.position))
        return None

    def _prepare_rain(self, dt: float) -> None:
        weather = self.app.try_resource(Weather)
        level = getattr(weather, "rain_level", 0.0)  # 0 … 1 of heavy rain (world.weather)
        self.rain_level = float(level() if callable(level) else level or 0.0)
        if self.rain_level <= 0.0:
            return
        eye = self.cameras.current.view(self.aspect).eye
        box = np.array(RAIN_BOX_M)
        drops = self._rain
        if not np.any(drops):
            drops[:] = (np.array([[self._rng.random() for _ in range(3)] for _ in range(RAIN_DROPS_MAX)]) - 0.5) * box
        wind = np.array(getattr(weather, "wind_now_m_s", (0.0, 0.0, 0.0)), dtype=float)
        fall = np.array((wind[0], wind[1], -RAIN_FALL_M_S))
        drops += fall * dt - (eye - self._rain_origin)  # drops live in a box that follows the eye
        self._rain_origin = eye.copy()
        drops[:] = (drops + box / 2.0) % box - box / 2.0  # wrap around the box
        n = int(RAIN_DROPS_MAX * math.sqrt(self.rain_level))  # drizzle must still show
        heads = drops[:n] + eye
        heads = heads[heads[:, 2] > self.ground_z]  # under the ground (which may be drawn without depth)
        n = len(heads)
        tails = heads - fall * 0.04  # streak length: 40 ms of travel
        verts = np.empty((2 * n, VERTEX_FLOATS), np.float32)
        verts[0::2, 0:3], verts[1::2, 0:3] = heads, tails
        verts[:, 3:6] = (0.0, 0.0, 1.0)
        verts[:, 6:10] = (0.82, 0.86, 0.95, 0.5)
        self.rain_mesh.upload(verts)

    # -- drawing -------------------------------------------------------------------------------
    def draw(self) -> None:
        if not self.prepared:
            self.prepare(0.0)
        lighting = self._lighting
        gl.glViewport(0, 0, self.fb_width, self.fb_height)
        fog = rgb(lighting.fog_colour)
        horizon = rgb(lighting.sky_horizon)
        gl.glClearColor(horizon[0], horizon[1], horizon[2], 1.0)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        view = self.cameras.current.view(self.aspect)
        view_proj = view.view_projection
        self.view = view
        camera = self.cameras.active
        ui_projection = tf.gl_matrix(tf.ortho_2d(self.width, self.height))

        gl.glDisable(gl.GL_BLEND)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        gl.glFrontFace(gl.GL_CCW)
        self.lit.use()
        u = self.u
        u["u_view_proj"] = tf.gl_matrix(view_proj)
        u["u_eye"] = tuple(float(v) for v in view.eye)
        u["u_sun_dir"] = tuple(lighting.sun_direction)
        u["u_sun_colour"] = tuple(c * lighting.sun_intensity for c in rgb(lighting.sun_colour))
        u["u_ambient"] = float(lighting.ambient)
        u["u_sky_colour"] = rgb(lighting.sky_zenith)
        u["u_fog_colour"] = fog
        fog_range = (float(lighting.fog_start), float(lighting.fog_end)) if camera != "top" else (1e9, 2e9)
        u["u_fog_range"] = fog_range  # the map looks down from high up: no haze
        # the ground first and without the depth test when nothing lies under it and the eye
        # is above it: everything else then stands in front of it wherever they overlap
        ground_first = self.ground_mesh is not None and self.ground_first and view.eye[2] > self.ground_z
        if ground_first:
            gl.glDisable(gl.GL_DEPTH_TEST)
            self._material(IDENTITY, (1.0, 1.0, 1.0, 1.0), unlit=0.0)
            self.ground_mesh.draw()
        gl.glEnable(gl.GL_DEPTH_TEST)
        if self.show_hud:
            self._draw_hud_panels(ui_projection)
            self.lit.use()
        gl.glDepthFunc(gl.GL_LESS)
        gl.glDisable(gl.GL_BLEND)
        # opaque, roughly front to back so the depth test rejects hidden pixels before shading:
        # the drone, the decals (pulled towards the eye by a polygon offset, so the surface
        # under them fails the depth test there), the solids, and last the ground if not first
        drone_model = tf.gl_matrix(self.model)
        draw_drone = self.show_drone and camera == "chase"
        if draw_drone:
            self._material(drone_model, (1.0, 1.0, 1.0, 1.0), unlit=0.0)
            self.body_mesh.draw()
        self._material(IDENTITY, (1.0, 1.0, 1.0, 1.0), unlit=0.0)
        if self.decal_mesh is not None:
            gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
            gl.glPolygonOffset(-1.0, -DECAL_OFFSET_UNITS)
            self.decal_mesh.draw()
            gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        for mesh in self.level_meshes:
            mesh.draw()
        if self.ground_mesh is not None and not ground_first:
            self.ground_mesh.draw()

        # sky: a cap around the eye inside the far plane, drawn after the opaque scene so the
        # depth test leaves it only the pixels nothing covered
        gl.glDepthMask(gl.GL_FALSE)
        if camera != "top":
            radius = 0.8 * view.far_m
            m = tf.translation(*view.eye) @ tf.scaling(radius, radius, radius)
            u["u_fog_range"] = (1e9, 2e9)  # the dome's colours already hold the haze
            gl.glCullFace(gl.GL_FRONT)  # seen from inside
            self._material(tf.gl_matrix(m), (1.0, 1.0, 1.0, 1.0), unlit=1.0)
            self.sky_mesh.draw()
            gl.glCullFace(gl.GL_BACK)
            u["u_fog_range"] = fog_range

        # blended things, depth-tested but not written
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDisable(gl.GL_CULL_FACE)
        # the blob shadow, the propellers and their blur discs: one batch, placed on the CPU
        # (a draw call costs a software renderer more than these few hundred vertices do)
        effects = self._effects(draw_drone)
        if len(effects):
            self.effects_mesh.upload(effects)
            gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)  # the shadow lies on a surface
            gl.glPolygonOffset(-1.0, -2.0 * DECAL_OFFSET_UNITS)
            self._material(IDENTITY, (1.0, 1.0, 1.0, 1.0), unlit=0.0, two_sided=1.0)
            self.effects_mesh.draw()
            gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        self._material(IDENTITY, (1.0, 1.0, 1.0, 1.0), unlit=1.0)
        self.trail_mesh.draw(gl.GL_LINE_STRIP)
        if camera == "top" or self._mission_active():
            self.route_mesh.draw(gl.GL_LINE_STRIP)
        if self.rain_level > 0.0 and camera != "top":
            self.rain_mesh.draw(gl.GL_LINES)
        if camera == "top":
            gl.glDisable(gl.GL_DEPTH_TEST)
            scale = self.cameras.cameras["top"].half_height_m / 30.0
            yaw = math.atan2(self.rotation[1, 0], self.rotation[0, 0])
            m = tf.translation(*self.position) @ tf.rotation_z(yaw) @ tf.scaling(scale, scale, scale)
            self._material(tf.gl_matrix(m), (1.0, 1.0, 1.0, 0.95), unlit=1.0)
            self.marker_mesh.draw()
        gl.glDepthMask(gl.GL_TRUE)

        # HUD and menus
        gl.glDisable(gl.GL_DEPTH_TEST)
        self.ui.use()
        self.u_ui["u_projection"] = ui_projection
        self.u_ui["u_glyphs"] = 0
        if self.show_hud:
            self.hud.draw(self.ui)
        self.hud.draw_overlays(self.app.try_resource(Menu), self.pause, self.bindings)
        self.hud.draw_overlay(self.ui)
        gl.glBindVertexArray(0)
        gl.glDisable(gl.GL_BLEND)

    def _draw_hud_panels(self, ui_projection) -> None:
        """The HUD's readout panels, first and opaque at the nearest depth (the scene behind
        them then fails the depth test instead of being shaded and covered). Panels and their
        text are drawn into a texture only when they change (at most `REFRESH_HZ`); each frame
        copies it with one quad per panel, each pixel fetching its own texel
        (shaders/panels.*) — hundreds of glyph quads a frame cost a software renderer more than
        the whole street."""
        hud, ui = self.hud, self.ui
        size = (self.fb_width, self.fb_height)
        if self._panel_cache is None or (self._panel_cache.width, self._panel_cache.height) != size:
            if self._panel_cache is not None:
                self._panel_cache.delete()
            self._panel_cache = RenderTarget(*size)
            self._panel_quads.texture = self._panel_cache
            self._panel_cache_valid = False
        if hud.panels_changed or not self._panel_cache_valid:
            ui.use()
            self.u_ui["u_projection"] = ui_projection
            self.u_ui["u_glyphs"] = 0
            self._panel_cache.bind()
            gl.glClearColor(0.0, 0.0, 0.0, 0.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT)
            gl.glDisable(gl.GL_DEPTH_TEST)
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            hud.draw_panels(ui)
            self._panel_cache.finish()
            gl.glViewport(0, 0, self.fb_width, self.fb_height)
            rects = hud.panel_rects()
            if rects != self._panel_rects:  # the layout changed: new quads to copy through
                self._panel_rects = rects
                self._panel_quads.clear()
                for i, (x, y, pw, ph) in enumerate(rects):
                    self._panel_quads.rect(f"panel.{i}", x, y, pw, ph, (1.0, 1.0, 1.0, 1.0))
            self._panel_cache_valid = True
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_ALWAYS)
        gl.glDisable(gl.GL_BLEND)
        self.panels.use()
        self.u_panels["u_projection"] = ui_projection
        self.u_panels["u_panels"] = 0
        self._panel_quads.draw(self.panels)

    def _effects(self, draw_drone: bool) -> np.ndarray:
        """World-space vertices of the blob shadow (black: lit or not, it stays black) and,
        when the drone is drawn, of each propeller at its angle and its blur disc; their
        transparency baked into the vertex alpha. Shadow first, then blade and disc per motor."""
        parts = []
        if self.show_drone and self.support_z is not None:
            height = max(0.0, float(self.position[2]) - self.support_z)
            alpha = 0.55 * max(0.0, 1.0 - height / 12.0)
            if alpha > 0.01:
                radius = 0.5 * max(self.drone.envelope_m[:2]) * (1.0 + 0.12 * height)
                m = tf.translation(self.position[0], self.position[1], self.support_z + 0.002) @ tf.scaling(radius, radius, 1.0)
                parts.extend(_placed(self._shadow_vertices, m[None], [alpha]))
        if draw_drone:
            at_motors = self.model @ self._motor_frames  # (4, 4, 4)
            spins = np.array([tf.rotation_z(a) for a in self.prop_angles])
            blur = [_smoothstep(BLUR_START_RPM, BLUR_FULL_RPM, rpm) for rpm in self.rpm]
            blades = _placed(self._prop_vertices, at_motors @ spins, [1.0 - 0.55 * b for b in blur])
            discs = _placed(self._blur_vertices, at_motors, [0.3 * b for b in blur])
            for i in range(len(blades)):
                parts.append(blades[i])
                if blur[i] > 0.0:
                    parts.append(discs[i])
        return np.concatenate(parts) if parts else np.zeros((0, VERTEX_FLOATS), np.float32)

    def _material(self, model, tint, unlit: float, two_sided: float = 0.0) -> None:
        u = self.u
        u["u_model"] = model
        u["u_tint"] = tint
        u["u_unlit"] = unlit
        u["u_two_sided"] = two_sided

    def _mission_active(self) -> bool:
        (ctrl,) = drone_components(self.app, Controller)
        return ctrl.mode == "mission"

    # -- for tests and tools -------------------------------------------------------------------
    def project(self, point) -> tuple[float, float] | None:
        """World point → (column, row) in `pixels()` (row 0 at the top), or None behind."""
        view = self.cameras.current.view(self.aspect)
        p = tf.project(view.view_projection, point, self.fb_width, self.fb_height)
        if p is None:
            return None
        return (p[0], self.fb_height - p[1])

    def pixels(self) -> np.ndarray:
        """The drawn frame, (height, width, 4) RGBA, top row first."""
        return read_pixels(0, 0, self.fb_width, self.fb_height)

    def delete(self) -> None:
        meshes = [self.body_mesh, self.effects_mesh, self.marker_mesh, self.route_mesh,
                  self.trail_mesh, self.rain_mesh, self.sky_mesh, *self.level_meshes]
        meshes += [m for m in (self.ground_mesh, self.decal_mesh) if m is not None]
        for mesh in meshes:
            mesh.delete()
        self.hud.delete()
        self._panel_quads.delete()
        if self._panel_cache is not None:
            self._panel_cache.delete()


def _placed(data: np.ndarray, matrices: np.ndarray, alphas) -> np.ndarray:
    """Copies of a vertex array, one per 4×4 transform in `matrices` (k, 4, 4): positions
    moved, normals turned by the rotation part, alpha scaled by `alphas[i]`. (k, n, floats)."""
    out = np.empty((len(matrices), *data.shape), np.float32)
    out[:] = data
    rot_t = matrices[:, :3, :3].transpose(0, 2, 1).astype(np.float32)
    out[:, :, 0:3] = np.matmul(data[:, 0:3], rot_t) + matrices[:, None, :3, 3]
    out[:, :, 3:6] = np.matmul(data[:, 3:6], rot_t)
    out[:, :, 9] *= np.asarray(alphas, dtype=np.float32)[:, None]
    return out


def _line_vertices(points: np.ndarray, colour, alpha: float | None) -> np.ndarray:
    """Vertices of a line strip; alpha None fades from old (transparent) to new (opaque)."""
    n = len(points)
    out = np.zeros((n, VERTEX_FLOATS), np.float32)
    out[:, 0:3] = points
    out[:, 5] = 1.0
    out[:, 6:9] = colour
    out[:, 9] = np.linspace(0.15, 0.95, n) if alpha is None and n else (alpha or 1.0)
    return out


def _soft_disc() -> MeshBuilder:
    """A unit disc, opaque in the middle and fading to nothing at the rim (the blob shadow)."""
    segments = 24
    ring = circle(1.0, segments)
    nxt = np.roll(np.arange(segments), -1)
    inner = np.column_stack((ring * 0.55, np.zeros(segments)))
    outer = np.column_stack((ring, np.zeros(segments)))
    centre = np.zeros((segments, 3))
    tris = [np.stack((centre, inner, inner[nxt]), axis=1),
            np.stack((inner, outer, outer[nxt]), axis=1), np.stack((inner, outer[nxt], inner[nxt]), axis=1)]
    alphas = [(1.0, 1.0, 1.0), (1.0, 0.0, 0.0), (1.0, 0.0, 1.0)]
    data = []
    for t, a in zip(tris, alphas):
        chunk = np.zeros((segments * 3, VERTEX_FLOATS), np.float32)
        chunk[:, 0:3] = t.reshape(-1, 3)
        chunk[:, 5] = 1.0
        chunk[:, 6:9] = 1.0
        chunk[:, 9] = np.tile(a, segments)
        data.append(chunk)
    builder = MeshBuilder()
    builder.vertices(np.concatenate(data))
    return builder


SKY_CAP_START_DEG = 12.0  # below this the clear colour (the horizon's) is the sky


def _sky_dome(lighting) -> MeshBuilder:
    """The sky above `SKY_CAP_START_DEG`, a unit cap seen from inside: the horizon colour at its
    rim (the frame is cleared to that colour, so the seam is invisible), the zenith colour
    overhead and a warm glow towards the sun — all in the vertex colours. Below the rim the
    clear colour is the sky: the software renderer never rasterises sky behind the street."""
    zenith, horizon = np.array(rgb(lighting.sky_zenith)), np.array(rgb(lighting.sky_horizon))
    sun = np.array(lighting.sun_direction)
    sun_colour = np.array(rgb(lighting.sun_colour))
    rings = np.radians([SKY_CAP_START_DEG, 18.0, 28.0, 42.0, 60.0, 78.0, 90.0])
    segments = 24
    az = np.linspace(0.0, 2.0 * math.pi, segments + 1)
    grid = np.stack([np.stack((np.cos(e) * np.cos(az), np.cos(e) * np.sin(az), np.full_like(az, np.sin(e))), -1)
                     for e in rings])  # (rings, segments + 1, 3)
    low = math.sin(rings[0])
    t = np.clip((grid[..., 2] - low) / (1.0 - low), 0.0, 1.0) ** 0.6
    colour = (1.0 - t)[..., None] * horizon + t[..., None] * zenith
    glow = np.clip(grid @ sun, 0.0, 1.0) ** 8 * (t > 0.0)
    colour = np.clip(colour + 0.25 * glow[..., None] * sun_colour, 0.0, 1.0)
    a, b = grid[:-1, :-1], grid[:-1, 1:]
    c, d = grid[1:, 1:], grid[1:, :-1]
    ca, cb, cc, cd = colour[:-1, :-1], colour[:-1, 1:], colour[1:, 1:], colour[1:, :-1]
    pos = np.stack((a, b, c, a, c, d), axis=2).reshape(-1, 3)
    col = np.stack((ca, cb, cc, ca, cc, cd), axis=2).reshape(-1, 3)
    data = np.zeros((len(pos), VERTEX_FLOATS), np.float32)
    data[:, 0:3] = pos
    data[:, 3:6] = -pos  # facing the centre
    data[:, 6:9] = col
    data[:, 9] = 1.0
    dome = MeshBuilder()
    dome.vertices(data)
    return dome


def _marker() -> MeshBuilder:
    """The map's drone marker: an arrow 2 m long pointing along +X, lying flat."""
    m = MeshBuilder()
    m.flat_polygon(np.array(((1.2, 0.0), (-0.8, 0.7), (-0.8, -0.7))), 0.0, MARKER_COLOUR)
    return m
