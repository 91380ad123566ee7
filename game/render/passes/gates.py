"""The course gates: each gate's opening outlined by a frame (a square beam round the
rectangle or the ring, `world.course.Gate.corners`), lit, seen from both sides.

While a course runs (`systems.course.CourseState`), its gates only: the next gate bright and
unlit (it glows), the gates still to come orange, the gates passed in this lap grey. With no
run, every course of the level is drawn orange, so a player sees where the courses go before
choosing one."""

from __future__ import annotations

import numpy as np

from game.render.frame import IDENTITY, Frame, GlState, Pass, static_mesh
from game.render.mesh import MeshBuilder
from systems.course import CourseState
from world.course import Gate
from world.level import ActiveLevel

FRAME_HALF_WIDTH_M = 0.08  # the beam: 0.16 m across in the gate's plane…
FRAME_HALF_DEPTH_M = 0.05  # … 0.10 m along the direction of passage
RING_SEGMENTS = 32
NEXT = (0.25, 1.0, 0.35, 1.0)  # the next gate: bright green, unlit
AHEAD = (1.0, 0.45, 0.1, 1.0)  # gates still to come (and every gate when no course runs)
PASSED = (0.45, 0.45, 0.45, 1.0)
# opaque, depth-tested, both faces (a frame is seen from inside and outside)
GATES = GlState(depth_test=True, depth_write=True, blend=False, cull_face=None)


def gate_frame(gate: Gate) -> MeshBuilder:
    """The frame round `gate`'s opening, in world coordinates, white (the draw tints it)."""
    corners = np.array(gate.corners(RING_SEGMENTS))
    centre, normal = np.array(gate.centre), np.array(gate.normal)
    across, up = np.array(gate.across), np.array(gate.up)
    if gate.is_ring:
        radial = corners - centre
        outward = radial / np.linalg.norm(radial, axis=1, keepdims=True) * FRAME_HALF_WIDTH_M
    else:  # mitred corners: the beam keeps its width along each side
        signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
        outward = np.array([FRAME_HALF_WIDTH_M * (sx * across + sy * up) for sx, sy in signs])
    depth = normal * FRAME_HALF_DEPTH_M
    # four corners of the beam's section at each point of the outline
    section = np.stack([corners + outward + depth, corners + outward - depth,
                        corners - outward - depth, corners - outward + depth], axis=1)
    nxt = np.roll(section, -1, axis=0)
    quads = []
    for k in range(4):
        j = (k + 1) % 4
        quads.append(np.stack([section[:, k], section[:, j], nxt[:, j], nxt[:, k]], axis=1))
    builder = MeshBuilder()
    builder.quads(np.concatenate(quads), (1.0, 1.0, 1.0))
    return builder


class GatesPass(Pass):
    state = GATES

    def __init__(self, app) -> None:
        self.app = app
        self._key: tuple | None = None
        self.courses: dict[str, list] = {}  # course id → its gates' meshes, in order
        self.draws: list[tuple[object, tuple]] = []  # this frame's (mesh, tint)
        self.next_gate: Gate | None = None  # the highlighted gate (tests, the HUD's arrow)

    def _follow_level(self) -> None:
        active = self.app.resource(ActiveLevel)
        key = (id(active), active.version)
        if key == self._key:
            return
        self._key = key
        self._free()
        level = active.level
        for course in (level.courses if level is not None else ()):
            gates = [Gate.of(g) for g in course.gates]
            self.courses[course.id] = [(gate, static_mesh(gate_frame(gate))) for gate in gates]

    def prepare(self, frame: Frame) -> None:
        self._follow_level()
        state = self.app.resource(CourseState)
        self.draws = []
        self.next_gate = None
        gates = self.courses.get(state.course_id) if state.course_id else None
        if gates is None:
            self.draws = [(mesh, AHEAD) for course in self.courses.values() for _, mesh in course]
            return
        n = len(gates)
        lap_start = (state.gate // n) * n if n else 0
        for i, (gate, mesh) in enumerate(gates):
            passage = lap_start + i  # this lap's passage of gate i
            if state.status == "finished" or passage < state.gate:
                tint = PASSED
            elif passage == state.gate:
                tint = NEXT
                self.next_gate = gate
            else:
                tint = AHEAD
            self.draws.append((mesh, tint))

    def draw(self, frame: Frame) -> None:
        if not self.draws:
            return
        frame.use(frame.lit)
        for mesh, tint in self.draws:
            frame.lit.material(IDENTITY, tint, unlit=1.0 if tint is NEXT else 0.0, two_sided=1.0)
            mesh.draw()

    def _free(self) -> None:
        for course in self.courses.values():
            for _, mesh in course:
                mesh.delete()
        self.courses = {}

    def delete(self) -> None:
        self._free()


