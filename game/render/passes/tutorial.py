"""The tutorial prompt, the hint bar's content and the controls overlay (F1), over the scene.

- The prompt (top centre): the level's current tutorial step (systems/tutorial.py
  `TutorialState`), "Tutorial · step 3/7" then its text in the player's language with each
  `{action}` replaced by the player's keys (game/render/hints.py); "Tutorial complete" for
  `DONE_SHOWN_S` once finished. Nothing in a level without a tutorial.
- The hint bar (bottom centre, drawn by the HUD): the next useful action (`hints.hint_bar`),
  rewritten when it changes.
- The controls overlay (F1, `show_controls`): every binding in force, keyboard and gamepad,
  grouped by what they do.
"""

from __future__ import annotations

from game.render import hints as H
from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import Hud
from game.render.text import UiLayer
from systems.tutorial import TutorialState
from world.tutorial import fill

BACK = (0.05, 0.07, 0.10, 0.78)
TITLE = (1.0, 0.85, 0.35, 1.0)
WHITE = (1.0, 1.0, 1.0, 1.0)
DONE_SHOWN_S = 8.0  # how long "Tutorial complete" stays up
GREY = (0.75, 0.8, 0.85, 1.0)


class TutorialPass(Pass):
    state = SCREEN

    def __init__(self, app, hud: Hud, telemetry, controls: H.Controls | None = None) -> None:
        self.app = app
        self.hud = hud
        self.telemetry = telemetry
        self.controls = controls or H.Controls()  # the window gives it the settings' bindings
        self.device = "both"  # "keyboard", "gamepad" or "both": whose keys the texts name
        self.show_controls = False  # F1
        self.layer = UiLayer(None)
        self.titles = UiLayer(None)
        self._built: tuple | None = None

    def prompt(self) -> tuple[str, str] | None:
        """(title, text) of the tutorial prompt now, or None."""
        state = self.app.try_resource(TutorialState)
        if state is None or not state.active:
            return None
        lang = self.hud.language
        if state.finished:
            shown = state.finished_at_s is not None and self.app.clock.time_s - state.finished_at_s < DONE_SHOWN_S
            return (H.text("tutorial_done", lang), "") if shown else None
        step = state.current
        body = step.text.fr if lang == "fr" else step.text.en
        from_keys = self.controls.placeholders(self.device)
        title = H.text("tutorial_step", lang).format(state.index + 1, state.count)
        return title, fill(body, from_keys)

    def prepare(self, frame: Frame) -> None:
        if frame.show_hud:
            tm = self.telemetry()
            self.hud.show_hint(H.hint_bar(H.Situation.of(tm), self.controls, self.hud.language, self.device))

    def draw(self, frame: Frame) -> None:
        hud = self.hud
        key = (hud.width, hud.height, hud.scale, hud.language, self.show_controls, self.prompt(), self.device,
               self.controls, frame.show_hud, tuple(self._panels()))
        if key != self._built:
            self._built = key
            self._build(frame.show_hud)
        shader = frame.use_ui()
        self.layer.draw(shader)
        self.titles.draw(shader)

    # -- layout ------------------------------------------------------------------------------
    def _build(self, show_hud: bool) -> None:
        hud = self.hud
        self.layer.font, self.titles.font = hud.small, hud.large
        self.layer.clear()
        self.titles.clear()
        prompt = self.prompt() if show_hud else None
        if prompt is not None:
            self._prompt(*prompt)
        if self.show_controls:
            self._controls()

    def _prompt(self, title: str, body: str) -> None:
        hud, o = self.hud, self.layer
        lines = _wrap(body, hud.small, 0.6 * hud.width) if body else []
        w = max([hud.small.width(title)] + [hud.small.width(s) for s in lines]) + 2 * hud.pad
        h = (1 + len(lines)) * hud.line + 2 * hud.pad
        x = (hud.width - w) / 2.0
        top = hud.height - hud.margin - 2 * hud.line  # under the top edge, clear of the pale sky's glare
        moved = True
        while moved:  # and below every panel of the HUD in use it would cover
            moved = False
            for px, py, pw, ph in self._panels():
                if px < x + w and x < px + pw and py - hud.margin < top and py + ph > top - h - hud.margin:
                    top, moved = py - hud.margin, True
        y = top - h
        o.rect("tutorial.back", x, y, w, h, BACK)
        top = y + h - hud.pad - hud.small.ascent
        o.text("tutorial.title", title, x + hud.pad, top, TITLE)
        for i, line in enumerate(lines):
            o.text(f"tutorial.line.{i}", line, x + hud.pad, top - (i + 1) * hud.line, WHITE)

    def _panels(self) -> list[tuple[float, float, float, float]]:
        """(x, y, width, height) of the panels of the HUD in use (bottom-left origin)."""
        hud = self.hud
        return list(hud.panel_rects() if hud.avoid_rects is None else hud.avoid_rects())

    def _controls(self) -> None:
        hud, o, ot = self.hud, self.layer, self.titles
        lang = hud.language
        table = H.controls_table(self.controls, lang)
        head = (H.text("keyboard", lang), H.text("gamepad", lang))
        rows = sum(len(r) + 1 for _, r in table) + 1
        line = min(hud.line, (hud.height - hud.big_line - 3 * hud.pad) / rows)
        c1 = max(hud.small.width(a) for _, r in table for a, _, _ in r) + 3 * hud.char
        c2 = max([hud.small.width(head[0])] + [hud.small.width(k) for _, r in table for _, k, _ in r]) + 3 * hud.char
        c3 = max([hud.small.width(head[1])] + [hud.small.width(p) for _, r in table for _, _, p in r])
        w = c1 + c2 + c3 + 2 * hud.pad
        h = hud.big_line + rows * line + 2 * hud.pad
        x, y = (hud.width - w) / 2.0, max(0.0, (hud.height - h) / 2.0)
        o.rect("controls.back", x, y, w, h, BACK)
        ot.text("controls.title", H.text("controls_title", lang), x + hud.pad, y + h - hud.pad - hud.large.ascent, WHITE)
        o.text("controls.close", H.text("controls_close", lang), x + w - hud.pad, y + h - hud.pad - hud.large.ascent,
               GREY, align="right")
        ry = y + h - hud.pad - hud.big_line - hud.small.ascent
        o.text("controls.head.keys", head[0], x + hud.pad + c1, ry, GREY)
        o.text("controls.head.pad", head[1], x + hud.pad + c1 + c2, ry, GREY)
        for g, (group, rows_) in enumerate(table):
            ry -= line
            o.text(f"controls.group.{g}", group, x + hud.pad, ry, TITLE)
            for i, (action, keys, pad) in enumerate(rows_):
                ry -= line
                o.text(f"controls.{g}.{i}.action", action, x + hud.pad + hud.char, ry, WHITE)
                o.text(f"controls.{g}.{i}.keys", keys, x + hud.pad + c1, ry, WHITE)
                o.text(f"controls.{g}.{i}.pad", pad, x + hud.pad + c1 + c2, ry, WHITE)

    def delete(self) -> None:
        self.layer.delete()
        self.titles.delete()


def _wrap(text: str, font, width: float) -> list[str]:
    """Greedy word wrap to `width` pixels."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and font.width(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines
