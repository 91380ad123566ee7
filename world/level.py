"""Levels as data: the level format's data model, the loaded `Level`, and its solids.

A level file (`levels/NAME/level.toml`, read by `world.level_file`) is data only — no code —
in metres and degrees, Z up, with a stable string `id` on everything a tool or an error may
need to name. Keys whose value is the default are omitted from files. The format
(documented in `levels/README.md`, exported as JSON Schema to `levels/level.schema.json`)
describes:

- `ground`: the ground plane (height, visual extent, colour);
- `street`: the road and its pavements (the pavements are raised slabs that collide);
- `boxes`: buildings, walls and obstacles (position, size, yaw);
- `cylinders`: poles and trees (a tree adds its canopy as a second, wider cylinder);
- `pads`: landing pads (id, size, height; role start / arrival / other);
- `platforms`: raised surfaces to land on (decks, rooftops);
- `mission`: the route (street and outskirts waypoints), the transit altitude, the arrival pad;
- `spawn_pad`, `spawn_yaw_deg`: where the drone starts;
- `weather`: presets (wind, gusts, density, rain), the first or `default_weather` used at start;
- `lighting`: sun, sky and fog hints for the renderer;
- `contact`: restitution and friction of the level's surfaces;
- `tutorial`: steps shown one at a time, each a prompt and a condition (`world.tutorial`);
- `courses`: gates in order to fly through against the clock (`world.course`);
- `spawns`: more places where drones may start (`Level.spawn_points`);
- `traffic`: AI drones, each flying a flight script (a route) from its start place.

Positions are `[x, y]` (standing on the ground) or `[x, y, z]`; for boxes, cylinders, pads
and platforms the position is the centre of the *bottom* face, so `z` is where the object
stands and its top is at `z + height`.

The classes here check each value (types, bounds); what the types alone cannot say (unique
ids, pads standing on something, a clear route) is checked by `world.level_checks`.

A `Level` is what the designer wrote; `compile_level(level)` turns it into the
`world.geometry.LevelGeometry` that collision and sensing use (every solid, the pavements
included). `ActiveLevel` is the resource through which a running App reaches the current
level and its geometry (`app.resource(ActiveLevel).geometry`); applying a new level swaps both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, Strict, StringConstraints,
                      WithJsonSchema, model_validator)

from world.geometry import BoxRow, CylinderRow, LevelGeometry
from world.tutorial import ACTION_NAMES, ConditionError, parse_condition, placeholders

FORMAT_VERSION = 1  # the level format this code reads (`format_version` in the file)

#: Limits that keep every number a level can hold physically meaningful and numerically safe.
MAX_COORD_M = 20_000.0  # |x|, |y|, |z| of any position
MAX_SIZE_M = 5_000.0  # any length, width, height or radius


# -- field types ----------------------------------------------------------------------------
Number = Annotated[float, Strict()]  # an int or a float in TOML; never a string or a bool
Coord = Annotated[Number, Field(ge=-MAX_COORD_M, le=MAX_COORD_M)]
Length = Annotated[Number, Field(gt=0.0, le=MAX_SIZE_M)]
Id = Annotated[str, Strict(), StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$", max_length=64)]
Text = Annotated[str, Strict(), StringConstraints(max_length=2000)]
Colour = Annotated[str, Strict(), StringConstraints(pattern=r"^#[0-9A-Fa-f]{6}$"),
                   Field(description='a colour "#rrggbb"')]


def _ground_z(value: Any) -> Any:
    """`[x, y]` stands on z = 0: append it."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return (*value, 0.0)
    return value


Position = Annotated[
    tuple[Coord, Coord, Coord], BeforeValidator(_ground_z),
    WithJsonSchema({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 3,
                    "description": "[x, y] on the ground or [x, y, z], metres"}),
]
Point2 = tuple[Coord, Coord]
Size3 = tuple[Length, Length, Length]
Size2 = tuple[Length, Length]
Yaw = Annotated[Number, Field(ge=-360.0, le=360.0, description="degrees counter-clockwise from +X")]
Wind = tuple[Annotated[Number, Field(ge=-60.0, le=60.0)], Annotated[Number, Field(ge=-60.0, le=60.0)],
             Annotated[Number, Field(ge=-60.0, le=60.0)]]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def rgb(colour: str) -> tuple[float, float, float]:
    """'#rrggbb' → (r, g, b) in [0, 1] for the renderer."""
    return tuple(int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))  # type: ignore[return-value]


# -- the parts of a level ---------------------------------------------------------------------
class Ground(_Data):
    """The ground plane: collides everywhere; `size` is only its drawn extent."""

    height: Coord = 0.0  # m, world z of the ground surface
    centre: Point2 = (0.0, 0.0)  # m, centre of the drawn area
    size: Size2 = (400.0, 400.0)  # m, drawn extent along X, Y
    colour: Colour = "#5f7a48"


class Street(_Data):
    """A straight road from `start` to `end` with a pavement (a raised slab) on each side."""

    start: Point2  # m, road centre line
    end: Point2
    road_width: Length = 8.0  # m
    pavement_width: Annotated[Number, Field(ge=0.0, le=MAX_SIZE_M)] = 3.0  # m, each side; 0: none
    kerb_height: Annotated[Number, Field(ge=0.0, le=2.0)] = 0.12  # m, pavement top above the road
    road_colour: Colour = "#3a3c40"
    pavement_colour: Colour = "#9a9690"

    @property
    def length_m(self) -> float:
        return math.dist(self.start, self.end)

    @property
    def yaw_deg(self) -> float:
        return math.degrees(math.atan2(self.end[1] - self.start[1], self.end[0] - self.start[0]))

    @property
    def centre(self) -> tuple[float, float]:
        return (0.5 * (self.start[0] + self.end[0]), 0.5 * (self.start[1] + self.end[1]))


class Box(_Data):
    """A box standing on `position` (centre of its bottom face), turned by `yaw_deg`."""

    id: Id
    position: Position  # m, centre of the bottom face
    size: Size3  # m, length along its own X, width along its own Y, height
    yaw_deg: Yaw = 0.0
    kind: Literal["building", "wall", "obstacle"] = "building"  # a hint for the renderer
    colour: Colour | None = None  # None: the renderer's colour for the kind

    @property
    def top_m(self) -> float:
        return self.position[2] + self.size[2]


class Platform(_Data):
    """A raised surface to land on (a deck, a rooftop): a box, drawn as a platform."""

    id: Id
    position: Position
    size: Size3
    yaw_deg: Yaw = 0.0
    colour: Colour | None = None

    @property
    def top_m(self) -> float:
        return self.position[2] + self.size[2]


class Cylinder(_Data):
    """A vertical cylinder standing on `position`: a pole, or a tree's trunk.

    A tree also has a canopy: a cylinder of `canopy_radius` from `canopy_base` above its
    position up to the trunk's top (`height`). Both collide.
    """

    id: Id
    position: Position
    radius: Length  # m
    height: Length  # m
    kind: Literal["pole", "tree"] = "pole"
    canopy_radius: Annotated[Number, Field(ge=0.0, le=MAX_SIZE_M)] = 0.0  # m, trees only; 0: no canopy
    canopy_base: Annotated[Number, Field(ge=0.0, le=MAX_SIZE_M)] = 0.0  # m above position
    colour: Colour | None = None

    @property
    def top_m(self) -> float:
        return self.position[2] + self.height


class LandingPad(_Data):
    """A landing pad: a thin slab of `size` × `height` standing on `position`."""

    id: Id
    position: Position  # m, centre of its bottom face (on a platform: z = the platform's top)
    size: Size2 = (1.0, 1.0)  # m
    height: Length = 0.05  # m, the slab's thickness: its top is at position z + height
    yaw_deg: Yaw = 0.0
    role: Literal["start", "arrival", "other"] = "other"
    colour: Colour | None = None

    @property
    def top_m(self) -> float:
        return self.position[2] + self.height


class Waypoint(_Data):
    id: Id
    position: Point2  # m; flown at the mission's transit altitude
    section: Literal["street", "outskirts"] = "street"


class Mission(_Data):
    """The route: waypoints in order at `transit_altitude` (world z), then the arrival pad."""

    arrival_pad: Id
    transit_altitude: Annotated[Number, Field(gt=0.0, le=1000.0)] = 18.0  # m, world frame
    waypoints: Annotated[list[Waypoint], Field(max_length=500)] = []


class WeatherPreset(_Data):
    """An experimental air state (docs/model.md#weather): mean wind, gust intensity, density, rain."""

    id: Id
    name: Text
    wind_m_s: Wind = (0.0, 0.0, 0.0)  # mean wind, world frame
    gust_m_s: Annotated[Number, Field(ge=0.0, le=30.0)] = 0.0  # gust intensity (standard deviation)
    density_kg_m3: Annotated[Number, Field(ge=0.0, le=2.0)] = 1.225
    rain_mm_h: Annotated[Number, Field(ge=0.0, le=500.0)] = 0.0  # visual only


CALM = WeatherPreset(id="calm", name="Calm")


class Lighting(_Data):
    """Hints for the renderer: sun direction and colour, ambient light, sky and fog."""

    sun_azimuth_deg: Annotated[Number, Field(ge=-360.0, le=360.0)] = 135.0  # from +X, counter-clockwise
    sun_elevation_deg: Annotated[Number, Field(ge=-90.0, le=90.0)] = 50.0
    sun_colour: Colour = "#fff4e0"
    sun_intensity: Annotated[Number, Field(ge=0.0, le=10.0)] = 1.0
    ambient: Annotated[Number, Field(ge=0.0, le=1.0)] = 0.35  # fraction of light from the sky
    sky_zenith: Colour = "#4f86c6"
    sky_horizon: Colour = "#c9dcee"
    fog_colour: Colour = "#c9dcee"
    fog_start: Annotated[Number, Field(ge=0.0, le=100_000.0)] = 120.0  # m
    fog_end: Annotated[Number, Field(ge=0.0, le=100_000.0)] = 600.0  # m

    @property
    def sun_direction(self) -> tuple[float, float, float]:
        """Unit vector towards the sun, world frame."""
        az, el = math.radians(self.sun_azimuth_deg), math.radians(self.sun_elevation_deg)
        return (math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))


class Contact(_Data):
    """How the level's surfaces answer an impact."""

    restitution: Annotated[Number, Field(ge=0.0, le=1.0)] = 0.2  # fraction of the normal speed kept by a bounce
    friction: Annotated[Number, Field(ge=0.0, le=5.0)] = 0.6  # Coulomb coefficient


def _condition(text: str) -> str:
    """A tutorial condition that parses (world.tutorial); the text is kept, parsed again when run."""
    try:
        parse_condition(text)
    except ConditionError as exc:
        raise ValueError(f"a condition: {exc}") from None
    return text


def _step_text(text: str) -> str:
    unknown = [name for name in placeholders(text) if name not in ACTION_NAMES]
    if unknown:
        raise ValueError(f"{{action}} placeholders naming actions ({', '.join(ACTION_NAMES)}), found {{{unknown[0]}}}")
    return text


StepText = Annotated[Text, AfterValidator(_step_text)]


class StepTexts(_Data):
    en: StepText  # shown to English players
    fr: StepText  # shown to French players


class TutorialStep(_Data):
    """One step: the prompt (EN, FR; `{action}` becomes the player's key/button) and the
    condition on the drone's state that, held for `hold_s`, completes it."""

    text: StepTexts
    condition: Annotated[Text, AfterValidator(_condition)]
    hold_s: Annotated[Number, Field(ge=0.0, le=600.0)] = 0.0


class Tutorial(_Data):
    """Steps shown one at a time, in order (world.tutorial: the condition language)."""

    steps: Annotated[list[TutorialStep], Field(min_length=1, max_length=200)]


CourseEnd = Annotated[str, Strict(), StringConstraints(pattern=r"^(gate|pad:[A-Za-z0-9][A-Za-z0-9_\-]*)$", max_length=70),
                     Field(description='"gate" or "pad:<pad id>"')]


class CourseGate(_Data):
    """One gate of a course: an opening centred on `position`, passed along `heading_deg`
    (counter-clockwise from +X), tilted by `tilt_deg` about its horizontal axis (+ nose up);
    a rectangle `size` = [width, height] or a ring of `radius` (world.course: the geometry)."""

    position: tuple[Coord, Coord, Coord]  # m, the opening's centre
    heading_deg: Yaw = 0.0
    tilt_deg: Annotated[Number, Field(ge=-80.0, le=80.0)] = 0.0
    size: Size2 | None = None  # m, width × height: a rectangle
    radius: Length | None = None  # m: a ring

    @model_validator(mode="after")
    def _one_shape(self) -> "CourseGate":
        if (self.size is None) == (self.radius is None):
            raise ValueError("either size = [width, height] or radius (one of them)")
        return self


class Course(_Data):
    """A course: gates in order, `laps` times, a par time; started by crossing gate 0 or by
    leaving a pad, finished at the last gate or by landing on a pad after it."""

    id: Id
    name: Text
    description: Text = ""
    par_s: Annotated[Number, Field(gt=0.0, le=86_400.0)]  # s
    laps: Annotated[int, Strict(), Field(ge=1, le=100)] = 1
    start: CourseEnd = "gate"
    finish: CourseEnd = "gate"
    gates: Annotated[list[CourseGate], Field(max_length=1000)] = []


def _one_place(item):
    """A spawn or a traffic drone starts on a pad or at a position: exactly one of them."""
    if (item.pad is None) == (item.position is None):
        raise ValueError('either pad = "<pad id>" or position = [x, y] / [x, y, z] (one of them)')
    return item


class SpawnPoint(_Data):
    """A place where a drone may start (`[[spawns]]`): resting on a pad, or standing at
    `position` (its envelope's bottom at z: `[x, y]` is on the ground), heading `yaw_deg`
    (default: the level's `spawn_yaw_deg`)."""

    pad: Id | None = None
    position: Position | None = None
    yaw_deg: Yaw | None = None

    @model_validator(mode="after")
    def _one(self) -> "SpawnPoint":
        return _one_place(self)


def _route_file(text: str) -> str:
    parts = text.split("/")
    if not text.endswith(".toml") or "\\" in text or ":" in parts[0] or any(p in ("", ".", "..") for p in parts):
        raise ValueError('a flight script path relative to the level\'s folder and inside it, ending in .toml, '
                         'folders separated by / (e.g. "routes/north.toml")')
    return text


RouteFile = Annotated[str, Strict(), StringConstraints(max_length=500), AfterValidator(_route_file),
                      Field(description="a flight script (examples/README.md), relative to the level's folder")]


class Traffic(_Data):
    """An AI drone (`[[traffic]]`): it starts like a spawn (a pad, or a position), and flies
    the flight script `script` (its `[[timeline]]`) on its own pad from `start_delay_s` after
    the level becomes active; `loop`: back to its start and again when the script ends."""

    id: Id
    pad: Id | None = None
    position: Position | None = None
    yaw_deg: Yaw | None = None
    script: RouteFile
    loop: Annotated[bool, Strict()] = False
    start_delay_s: Annotated[Number, Field(ge=0.0, le=3600.0)] = 0.0  # s

    @model_validator(mode="after")
    def _one(self) -> "Traffic":
        return _one_place(self)


class Level(_Data):
    """A loaded, validated level. Immutable: hot reload builds a new one."""

    format_version: Literal[1]
    name: Text
    description: Text = ""
    spawn_pad: Id
    spawn_yaw_deg: Yaw = 0.0
    default_weather: Id | None = None  # None: the first preset
    ground: Ground = Ground()
    street: Street | None = None
    boxes: Annotated[list[Box], Field(max_length=100_000)] = []
    cylinders: Annotated[list[Cylinder], Field(max_length=100_000)] = []
    pads: Annotated[list[LandingPad], Field(min_length=1, max_length=10_000)]
    platforms: Annotated[list[Platform], Field(max_length=10_000)] = []
    mission: Mission | None = None
    weather: Annotated[list[WeatherPreset], Field(min_length=1, max_length=100)] = [CALM]
    lighting: Lighting = Lighting()
    contact: Contact = Contact()
    tutorial: Tutorial | None = None
    courses: Annotated[list[Course], Field(max_length=100)] = []
    spawns: Annotated[list[SpawnPoint], Field(max_length=1000)] = []
    traffic: Annotated[list[Traffic], Field(max_length=100)] = []
    _source: str = PrivateAttr(default="")  # the file it was loaded from

    @property
    def source(self) -> str:
        """The file this level was loaded from ("" if built in code)."""
        return self._source

    # -- look-ups ----------------------------------------------------------------------------
    def pad(self, pad_id: str) -> LandingPad:
        for p in self.pads:
            if p.id == pad_id:
                return p
        raise KeyError(f"no pad {pad_id!r} in level {self.name!r}")

    @property
    def spawn(self) -> LandingPad:
        return self.pad(self.spawn_pad)

    def weather_preset(self, preset_id: str | None = None) -> WeatherPreset:
        """The preset `preset_id`, or the start preset (`default_weather`, else the first)."""
        wanted = preset_id if preset_id is not None else self.default_weather
        if wanted is None:
            return self.weather[0]
        for w in self.weather:
            if w.id == wanted:
                return w
        raise KeyError(f"no weather preset {wanted!r} in level {self.name!r}")

    @property
    def start_weather(self) -> WeatherPreset:
        return self.weather_preset()

    def spawn_position(self, envelope_height_m: float) -> tuple[float, float, float]:
        """Centre of mass resting on the spawn pad: pad top + half the envelope height."""
        pad = self.spawn
        return (pad.position[0], pad.position[1], pad.top_m + 0.5 * envelope_height_m)

    def spawn_points(self, envelope_height_m: float) -> list[tuple[tuple[float, float, float], float]]:
        """Where drones may start, in order — (centre of mass at rest, yaw in degrees): the
        spawn pad first (the player's), then the `[[spawns]]` in file order; a level without
        `[[spawns]]` lists every other pad whose role is "start" instead."""
        first = (self.spawn_position(envelope_height_m), self.spawn_yaw_deg)
        if self.spawns:
            return [first] + [self.start_of(s, envelope_height_m) for s in self.spawns]
        pads = [p for p in self.pads if p.role == "start" and p.id != self.spawn_pad]
        return [first] + [((p.position[0], p.position[1], p.top_m + 0.5 * envelope_height_m), self.spawn_yaw_deg)
                          for p in pads]

    def start_of(self, place: SpawnPoint | Traffic,
                 envelope_height_m: float) -> tuple[tuple[float, float, float], float]:
        """(centre of mass at rest, yaw in degrees) of a spawn or a traffic drone: on its pad's
        top, or with the envelope's bottom at its position's z; the level's spawn yaw by default."""
        yaw = self.spawn_yaw_deg if place.yaw_deg is None else place.yaw_deg
        if place.pad is not None:
            pad = self.pad(place.pad)
            return (pad.position[0], pad.position[1], pad.top_m + 0.5 * envelope_height_m), yaw
        x, y, z = place.position
        return (x, y, z + 0.5 * envelope_height_m), yaw

    def route(self) -> list[tuple[float, float, float]]:
        """The mission route in world metres: each waypoint at the transit altitude, then the
        point above the arrival pad at the transit altitude (the descent follows)."""
        if self.mission is None:
            return []
        z = self.mission.transit_altitude
        points = [(w.position[0], w.position[1], z) for w in self.mission.waypoints]
        arrival = self.pad(self.mission.arrival_pad)
        points.append((arrival.position[0], arrival.position[1], z))
        return points

    def ids(self) -> dict[str, str]:
        """Every geometry id → what it names ("box", "cylinder", "pad", "platform")."""
        out: dict[str, str] = {}
        for kind, items in (("box", self.boxes), ("cylinder", self.cylinders), ("pad", self.pads),
                            ("platform", self.platforms)):
            for item in items:
                out.setdefault(item.id, kind)
        return out


# -- the level's solids -----------------------------------------------------------------------
def _box(position, size, yaw_deg: float, id_: str, kind: str) -> BoxRow:
    """A box standing on `position` (its bottom face's centre, m) as a row centred on its volume."""
    yaw = math.radians(yaw_deg)
    return BoxRow(float(position[0]), float(position[1]), float(position[2]) + 0.5 * size[2],
                  0.5 * size[0], 0.5 * size[1], 0.5 * size[2], math.cos(yaw), math.sin(yaw), id_, kind)


def pavement_boxes(level: Level) -> list[BoxRow]:
    """The street's two pavements as slabs of `kerb_height` along each side of the road."""
    st = level.street
    if st is None or st.pavement_width <= 0.0 or st.kerb_height <= 0.0 or st.length_m <= 0.0:
        return []
    (cx, cy), yaw = st.centre, math.radians(st.yaw_deg)
    offset = 0.5 * st.road_width + 0.5 * st.pavement_width
    nx, ny = -math.sin(yaw), math.cos(yaw)  # left of the street's direction
    z = level.ground.height
    out = []
    for side, sign in (("left", 1.0), ("right", -1.0)):
        out.append(_box((cx + sign * offset * nx, cy + sign * offset * ny, z),
                        (st.length_m, st.pavement_width, st.kerb_height), st.yaw_deg, f"pavement-{side}", "pavement"))
    return out


def compile_level(level: Level) -> LevelGeometry:
    """Every solid of `level` (boxes, platforms, pads, pavements, poles, trunks, canopies)."""
    boxes = [_box(b.position, b.size, b.yaw_deg, b.id, b.kind) for b in level.boxes]
    boxes += [_box(p.position, p.size, p.yaw_deg, p.id, "platform") for p in level.platforms]
    boxes += [_box(p.position, (p.size[0], p.size[1], p.height), p.yaw_deg, p.id, "pad") for p in level.pads]
    boxes += pavement_boxes(level)
    cylinders = []
    for c in level.cylinders:
        x, y, z = (float(v) for v in c.position)
        cylinders.append(CylinderRow(x, y, float(c.radius), z, z + c.height, c.id, c.kind))
        if c.kind == "tree" and c.canopy_radius > 0.0 and c.canopy_base < c.height:
            cylinders.append(CylinderRow(x, y, float(c.canopy_radius), z + c.canopy_base, z + c.height,
                                         c.id, "canopy"))  # the tree's id: a hit names the tree
    return LevelGeometry(ground_z_m=float(level.ground.height), boxes=tuple(boxes), cylinders=tuple(cylinders),
                         restitution=float(level.contact.restitution), friction=float(level.contact.friction))


# -- the resource ----------------------------------------------------------------------------
@dataclass
class ActiveLevel:
    """The level a running App flies in (a resource): the `Level` (None in the lab world) and
    its compiled `geometry`. `version` grows at every swap so caches know to rebuild."""

    level: Level | None = None
    geometry: LevelGeometry = field(default_factory=LevelGeometry.empty)
    version: int = 0

    @classmethod
    def of(cls, level: Level | None) -> ActiveLevel:
        """`level` (None: the lab world) with its geometry compiled."""
        return cls(level, compile_level(level) if level is not None else LevelGeometry.empty())

    def swap(self, level: Level | None) -> None:
        """Fly in `level` from now on (hot reload): geometry only, nothing of the drone."""
        self.level = level
        self.geometry = compile_level(level) if level is not None else LevelGeometry.empty()
        self.version += 1
