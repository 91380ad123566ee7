"""The renderer: one frame of the drones' world, drawn by passes in an order declared once.

`prepare(dt)` runs in the RENDER stage after the frame's fixed ticks: it follows the active
level (the passes rebuild their level meshes when it was swapped), interpolates every drone
between its last two ticks (`fleet.Fleet`: one matrix per drone) and the followed one's pose
(`DronePose`; follow.py: the player's unless F / the right stick's click chose another), moves
the cameras after the followed drone (the map widens to show the others), lets each pass read
what it draws, and refreshes the HUD from the followed drone's telemetry. `draw()` clears the
frame to the level's horizon colour, lights the 3D program for the camera (both darkened by
rain: rain_light.py), and lets each pass issue its GL calls for the last prepared frame — so a
paused game keeps drawing without stepping.

Each thing drawn is a pass in game/render/passes/ (frame.py gives their contract). Their
order, in `Renderer.__init__`, is chosen for a software renderer, where the cost is per pixel
and per draw call:

1. the ground, without the depth test, when nothing lies under it (passes/level.py);
2. the HUD panels, opaque at the nearest depth, so the scene behind them is never shaded;
3. opaque, roughly front to back: the drone's body, the decals and the level's solids (then
   the ground, if it was not painted first);
4. the sky cap, only where nothing was drawn;
5. blended, depth-tested but not written: one batch of blob shadow + propellers + blur discs,
   the landing aid (ring and drop line), the trail, the route, the rain; the map's marker over
   them;
6. the HUD's text around the panels, then the menus.
"""

from __future__ import annotations

from typing import Callable

import math

import numpy as np
from pyglet import gl

from components.flight import RigidBody
from components.world import Collider
from game.render import hud_text
from game.render import transforms as tf
from game.render.camera import CameraRig, ChaseCamera, FirstPersonCamera, MapCamera, View, level_raycast
from game.render.drone_model import build_drone
from game.render.fleet import PALETTE_NAMES, Fleet
from game.render.follow import follow_next, followed_entity, followed_resource, position_in_fleet, telemetry_of
from game.render.frame import DrawnLevel, FollowedLevel, Frame, LitProgram, Pass, Program, draw_world
from game.render.gl import read_pixels
from game.render.hud import Hud, HudContext
from game.render.level_model import LevelMeshes
from game.render.passes.crash import CrashPass
from game.render.passes.drone import DronePass
from game.render.passes.fleet import FleetDrawing
from game.render.passes.hud import HudPanelsPass, HudTextPass
from game.render.passes.landing_aid import LandingAidPass
from game.render.passes.lab_note import LabNotePass
from game.render.passes.level import GroundFirstPass, LevelPass
from game.render.passes.map_marker import MapMarkerPass, arrow
from game.render.passes.menus import MenusPass
from game.render.passes.player_hud import PlayerHudPass
from game.render.passes.props_and_shadow import PropsAndShadowPass, shadow_disc
from game.render.passes.rain import RainPass
from game.render.passes.route import RoutePass
from game.render.passes.sky import SkyPass
from game.render.passes.trail import TrailPass
from game.render.passes.tutorial import TutorialPass
from game.render.player_hud import PlayerHud
from game.render.rain_light import rain_lighting
from game.render.text import Font
from systems.assists import AssistState
from systems.scene import Player, SceneConfig, drone_components, drones
from world.geometry import LevelGeometry
from world.level import ActiveLevel, Level
from world.weather import Weather

SMALL_FONT = "DejaVu Sans Mono"  # readouts: fixed width, digits do not dance
LARGE_FONT = "DejaVu Sans"


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
        self.vehicle = app.resource(SceneConfig).vehicle
        self.drone = build_drone(self.vehicle)
        self.cameras = CameraRig(ChaseCamera(raycast=level_raycast(self._geometry)),
                                 FirstPersonCamera(self.drone.camera_position_m), MapCamera(), active=camera)
        self._fonts: dict[tuple[float, bool], Font] = {}
        self.hud = Hud(self._font, max_rpm=self.vehicle.max_motor_speed_rad_s * 60.0 / (2.0 * math.pi))
        self.player_hud = PlayerHud(self._font)  # the default HUD; H toggles (set_hud)
        self.hud_kind = "player"
        self.hud.visible = False
        # other passes' screen areas messages keep clear of, besides the panels in use (the course HUD's)
        self.obstacles: list[Callable[[], list[tuple[float, float, float, float]]]] = []
        self.hud.avoid_rects = self.message_obstacles
        self.language = language
        self.frame = Frame(lit=LitProgram(), ui=Program("ui"), look=self._look)

        self.fleet = Fleet(self.drone, self.vehicle)  # every drone as drawn (fleet.py)
        self.drawing = FleetDrawing(self.fleet, {"body": lambda m: m.body, "prop": lambda m: m.prop,
                                                 "blur": lambda m: m.blur, "shadow": lambda m: shadow_disc(),
                                                 "arrow": lambda m: arrow(), "far_body": lambda m: m.far_body})
        followed_resource(app)  # the followed drone (follow.py): the player's at first
        self.followed: int | None = None  # the entity the cameras and the HUD follow, as last prepared
        self._tagged: tuple[int, ...] = ()  # the drones when the HUD's follow tag was written
        self.level = LevelPass()
        self.props = PropsAndShadowPass(self.drawing)
        self.trail = TrailPass(app)
        self.landing_aid = LandingAidPass(app)
        self.route = RoutePass(app)
        self.rain = RainPass(app)
        self.menus = MenusPass(app, self.hud)  # the window gives it its pause panel
        self.tutorial = TutorialPass(app, self.hud, telemetry)  # the window gives it the bindings
        self.passes: tuple[Pass, ...] = (  # the draw order: see the module docstring
            GroundFirstPass(self.level),
            HudPanelsPass(self.hud),
            DronePass(self.drawing),
            self.level,
            SkyPass(app),
            self.props,
            self.landing_aid,
            self.trail,
            self.route,
            self.rain,
            MapMarkerPass(self.cameras.cameras["top"], self.drawing),
            PlayerHudPass(self.player_hud),
            HudTextPass(self.hud),
            self.tutorial,
            LabNotePass(app, self.hud),
            CrashPass(app, self.hud),
            self.menus,
        )

        self.followed_level = FollowedLevel(app)
        self.drawn_level: DrawnLevel | None = None  # the active level, as last given to the passes
        self._prepared_meshes: tuple[Level, LevelMeshes] | None = None  # built off the frame thread
        self.width = self.height = 1
        self.prepared = False
        self.resize(width, height)

    def _font(self, size: float, bold: bool) -> Font:
        key = (size, bold)
        if key not in self._fonts:
            self._fonts[key] = Font(LARGE_FONT if bold else SMALL_FONT, size, bold=bold)
        return self._fonts[key]

    # -- the level -----------------------------------------------------------------------------
    def _geometry(self) -> LevelGeometry:
        return self.app.resource(ActiveLevel).geometry

    def _follow_level(self) -> None:
        """Give the passes the active level when it changed (a swap or a hot reload)."""
        self.drawn_level = self.followed_level.follow(self.passes, self._prepared_for)

    def _prepared_for(self, level: Level | None) -> LevelMeshes | None:
        prepared = self._prepared_meshes
        self._prepared_meshes = None
        return prepared[1] if prepared is not None and prepared[0] is level and level is not None else None

    def use_prepared_meshes(self, level: Level, meshes: LevelMeshes) -> None:
        """When `level` becomes the active level, draw it from `meshes` (level_model's
        `prepare_level_meshes`, built by a hot reload's worker) instead of building them here."""
        self._prepared_meshes = (level, meshes)

    # -- sizing, camera, language --------------------------------------------------------------
    def _look(self) -> View:
        return self.cameras.current.view(self.aspect)

    def resize(self, width: int, height: int, fb_width: int | None = None, fb_height: int | None = None) -> None:
        """New window size (HUD pixels) and framebuffer size (GL pixels; HiDPI may differ)."""
        self.width, self.height = max(1, int(width)), max(1, int(height))
        self.frame.fb_width = max(1, int(fb_width if fb_width is not None else width))
        self.frame.fb_height = max(1, int(fb_height if fb_height is not None else height))
        self.frame.ui_projection = tf.gl_matrix(tf.ortho_2d(self.width, self.height))
        self.hud.layout(self.width, self.height, self.language)
        self.player_hud.layout(self.width, self.height, self.language)
        self._refresh_hud_now()

    @property
    def aspect(self) -> float:
        return self.width / self.height

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
        self.hud.follow_tag = self.follow_tag()
        self.hud.layout(self.width, self.height, language)
        self.player_hud.layout(self.width, self.height, language)
        self._refresh_hud_now()

    def set_hud(self, kind: str) -> None:
        """"player" (the default) or "engineering": which HUD's panels are drawn. Messages
        and the hint bar stay, placed clear of the panels in use."""
        self.hud_kind = "engineering" if kind == "engineering" else "player"
        self.hud.visible = self.hud_kind == "engineering"
        self.player_hud.visible = not self.hud.visible
        self.hud.refresh_soon()
        self.player_hud.refresh_soon()

    def message_obstacles(self) -> list[tuple[float, float, float, float]]:
        """Where messages (and the tutorial prompt) must not go: the panels of the HUD in use
        and what other passes have put on the screen (the course HUD)."""
        panels = self.hud.panel_rects() if self.hud.visible else self.player_hud.panel_rects()
        return [*panels, *(rect for occupied in self.obstacles for rect in occupied())]

    def toggle_hud(self) -> str:
        """H: the other HUD (a message says which)."""
        self.set_hud("player" if self.hud_kind == "engineering" else "engineering")
        lang = self.language
        self.hud.message(hud_text.message("hud_mode", lang, hud_text.label(f"hud_{self.hud_kind}", lang)))
        return self.hud_kind

    # -- the followed drone --------------------------------------------------------------------
    def follow_next(self, step: int = 1) -> int:
        """F / the right stick's click: the cameras and the HUD follow the next drone in creation
        order (the player's after the last); the HUD says which. Its entity."""
        entity = follow_next(self.app, step)
        self._now_following(entity)
        return entity

    def _now_following(self, entity: int) -> None:
        """The cameras take the drone at once (no smoothing from the last one); the HUD reads it
        from the next frame, names it when it is not the player's and says so."""
        first = self.followed is None
        self.followed = entity
        self.frame.drone = None if entity == self.app.resource(Player).entity else entity
        self.cameras.reset()
        self.player_hud.follow(entity)
        self.hud.set_follow_tag(self.follow_tag())
        self.hud.refresh_soon()
        self.player_hud.refresh_soon()
        if not first:
            tag = self.follow_tag()
            self.hud.message(tag or hud_text.message("following_player", self.language))

    def follow_tag(self) -> str:
        """"FOLLOWING DRONE 2/3 (orange)" while another drone than the player's is followed, else ""."""
        entity = self.followed
        if entity is None or entity == self.app.resource(Player).entity:
            return ""
        index, count = position_in_fleet(self.app, entity)
        colour = PALETTE_NAMES[self.fleet.colour_index(entity)][1 if self.language == "fr" else 0]
        return hud_text.message("following", self.language, index, count, colour)

    def followed_telemetry(self):
        """The followed drone's telemetry record (the HUD's)."""
        entity = self.followed
        if entity is None or entity == self.app.resource(Player).entity:
            return self.telemetry()
        return telemetry_of(self.app, entity)

    # -- per frame -----------------------------------------------------------------------------
    def prepare(self, dt: float) -> None:
        """Read the components for this frame (the RENDER stage calls it after the ticks)."""
        self._follow_level()
        frame = self.frame
        frame.dt = dt
        app = self.app
        entities = drones(app)
        entity = followed_entity(app, entities)
        if entity != self.followed:
            self._now_following(entity)
        alpha = app.clock.alpha
        fleet = frame.fleet = self.fleet.update(app, alpha, dt, entity, entities)
        if fleet.entities != self._tagged and self.followed != app.resource(Player).entity:
            self._tagged = fleet.entities  # a drone came or went: "DRONE 2/3" may have changed
            self.hud.set_follow_tag(self.follow_tag())
        body, collider, assists = drone_components(app, RigidBody, Collider, AssistState, entity=entity)
        frame.pose.interpolate(body, alpha)
        self.cameras.cameras["chase"].sense_ground(collider.height_above_ground_m, assists.landing is not None,
                                                   float(body.velocity[2]))
        self.cameras.cameras["top"].show_also(fleet.positions)
        self.cameras.update(dt, frame.pose.position, frame.pose.rotation)
        frame.camera_moved(self.cameras.active)
        for render_pass in self.passes:
            render_pass.prepare(frame)
        self.prepared = True
        if frame.show_hud:
            self.hud.update(dt, self.followed_telemetry, self._hud_context())
            if self.player_hud.visible:
                self.player_hud.update(dt, self.followed_telemetry, self._hud_context())

    def draw(self) -> None:
        """The last prepared frame: clear to the horizon, then every pass in order, each in its
        GL state."""
        if not self.prepared:
            self.prepare(0.0)
        frame = self.frame
        frame.camera_moved(self.cameras.active)  # switched, or the window resized, since `prepare`
        lighting = rain_lighting(self.drawn_level.lighting, self.app.resource(Weather).rain_mm_h)
        gl.glViewport(0, 0, frame.fb_width, frame.fb_height)
        draw_world(frame, self.passes, lighting)

    def _hud_context(self) -> HudContext:
        return HudContext(camera=self.cameras.active, weather=self.app.resource(Weather),
                        distance_to=self.mission_distance)

    def _refresh_hud_now(self) -> None:
        if self.prepared:
            self.hud.refresh(self.followed_telemetry(), self._hud_context())
            self.player_hud.refresh(self.followed_telemetry(), self._hud_context())

    def mission_distance(self, index: int) -> float | None:
        """Metres from the drone (as drawn) to waypoint `index` of the route, or None."""
        return self.route.distance_m(index, self.frame.pose.position)

    # -- for tests and tools -------------------------------------------------------------------
    def project(self, point) -> tuple[float, float] | None:
        """World point → (column, row) in `pixels()` (row 0 at the top), or None behind."""
        view = self._look()
        height = self.frame.fb_height
        p = tf.project(view.view_projection, point, self.frame.fb_width, height)
        if p is None:
            return None
        return (p[0], height - p[1])

    def pixels(self) -> np.ndarray:
        """The drawn frame, (height, width, 4) RGBA, top row first."""
        return read_pixels(0, 0, self.frame.fb_width, self.frame.fb_height)

    def delete(self) -> None:
        for render_pass in self.passes:
            render_pass.delete()
        self.drawing.delete()
        self.hud.delete()
        self.frame.lit.delete()
        self.frame.ui.delete()
