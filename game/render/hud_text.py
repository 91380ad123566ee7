"""What the HUD says, in English and French, and how its numbers are written.

docs/model.md#hud: PROPULSION (MotorPower), the targets (ManualTargetVelocity, TARGET Z in the fixed
world frame), HEIGHT ABOVE GROUND (to the surface detected under the drone) and what the
motors actually produce (rpm, thrust) are shown separately, so altitude hold is never
mistaken for terrain following and MotorPower never for thrust. Units are SI; degrees only
for headings. Pure Python: no GL.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from flight.assists import MissionRecord
from game.render.readouts import bearing_deg, compass_point, whole_bearing, wind_from_bearing

LANGUAGES = ("en", "fr")

LABELS: dict[str, tuple[str, str]] = {  # id → (English, French)
    "flight": ("FLIGHT", "VOL"),
    "propulsion": ("PROPULSION", "PROPULSION"),
    "mode": ("MODE", "MODE"),
    "assist": ("ASSIST", "ASSISTANCE"),
    "target_vel": ("TARGET VEL", "VITESSE CIBLE"),
    "target_z": ("TARGET Z", "CIBLE Z"),
    "height": ("HEIGHT ABOVE GROUND", "HAUTEUR SOL"),
    "h_speed": ("H SPEED", "VITESSE H"),
    "v_speed": ("V SPEED", "VITESSE V"),
    "motors": ("MOTORS (PRODUCED)", "MOTEURS (PRODUIT)"),
    "battery": ("BATTERY", "BATTERIE"),
    "voltage": ("VOLTAGE", "TENSION"),
    "power": ("POWER", "PUISSANCE"),
    "damage": ("DAMAGE", "DÉGÂTS"),
    "wind": ("WIND", "VENT"),
    "mission": ("MISSION", "MISSION"),
    "camera": ("CAMERA", "CAMÉRA"),
    "world": ("world", "monde"),
    "from": ("from", "de"),
    "none": ("none", "aucune"),
    "nothing_below": ("nothing below", "rien dessous"),
    "calm": ("calm", "calme"),
    "armed": ("ARMED", "ARMÉ"),
    "disarmed": ("MOTORS OFF", "MOTEURS COUPÉS"),
    "rain_note": ("Rain: visual only — its effects on flight are not modelled",
                  "Pluie : visuelle seulement — ses effets sur le vol ne sont pas modélisés"),
    "hints": ("Tab menu · C camera · Esc pause · F11 fullscreen",
              "Tab menu · C caméra · Échap pause · F11 plein écran"),
    "menu": ("MENU", "MENU"),
    "menu_hint": ("↑↓ choose · Enter/A/→ open, select · ←/B back · Tab/LB close",
                  "↑↓ choisir · Entrée/A/→ ouvrir, valider · ←/B retour · Tab/LB fermer"),
    "menu_confirm": ("Yes, restart the flight", "Oui, recommencer le vol"),
    "menu_cancel": ("Cancel", "Annuler"),
    "menu_confirm_title": ("RESTART?", "RECOMMENCER ?"),
    "paused": ("PAUSED", "PAUSE"),
    "pause_hint": ("↑↓ choose · ←→ change · Enter/A select · Esc resume",
                   "↑↓ choisir · ←→ modifier · Entrée/A valider · Échap reprendre"),
    "controls": ("CONTROLS", "COMMANDES"),
    "entry_resume": ("Resume", "Reprendre"),
    "entry_camera": ("Camera", "Caméra"),
    "entry_volume": ("Volume", "Volume"),
    "entry_language": ("Language (HUD)", "Langue (HUD)"),
    "entry_vsync": ("V-sync", "Synchro verticale"),
    "entry_fps_cap": ("Frame-rate cap", "Limite d'images/s"),
    "entry_fullscreen": ("Fullscreen", "Plein écran"),
    "entry_controls": ("Controls", "Commandes"),
    "entry_quit": ("Quit", "Quitter"),
    "on": ("on", "oui"),
    "off": ("off", "non"),
    "no_cap": ("none", "aucune"),
    # the player HUD (game/render/player_hud.py)
    "p_speed": ("SPD", "VIT"),
    "p_height": ("HGT", "HAUT"),
    "p_power": ("PWR", "PROP"),
    "p_heading": ("HDG", "CAP"),
    "p_wind": ("WIND", "VENT"),
    "p_home": ("HOME", "DÉPART"),
    "p_target": ("WP", "PT"),
    "p_battery": ("BAT", "BAT"),
    "p_time": ("TIME", "TEMPS"),
    "p_left": ("left", "restant"),
    "entry_hud": ("HUD", "HUD"),
    "entry_back_to_title": ("Back to title", "Retour au titre"),
    "hud_player": ("player", "joueur"),
    "hud_engineering": ("engineering", "ingénieur"),
    # the title screen (game/title.py)
    "title": ("DONIFY", "DONIFY"),
    "title_subtitle": ("Fly a Ryze Tello", "Pilotez un Ryze Tello"),
    "title_levels": ("LEVELS", "NIVEAUX"),
    "title_courses": ("COURSES", "PARCOURS"),
    "title_no_courses": ("none yet", "aucun pour l'instant"),
    "title_free_flight": ("Free flight", "Vol libre"),
    "title_tutorial": ("Tutorial", "Tutoriel"),
    "title_settings": ("Settings", "Réglages"),
    "title_quit": ("Quit", "Quitter"),
    "title_back": ("Back", "Retour"),
    "title_hint": ("↑↓ choose · ←→ change · Enter/A select · Esc/B back",
                   "↑↓ choisir · ←→ modifier · Entrée/A valider · Échap/B retour"),
    "title_loading": ("Loading…", "Chargement…"),
    "menu_weather": ("Weather: ", "Météo : "),
    "menu_air": ("Air: ", "Air : "),
    # crashes (game/render/passes/crash.py), the laboratory modes' note (passes/lab_note.py)
    "crashed": ("CRASHED", "ÉCRASÉ"),
    "crashed_restart": ("Restart: R / BACK", "Recommencer : R / BACK"),
    "lab_note": ("PROPULSION = collective · hover ≈ {0:.0f} %", "PROPULSION = poussée collective · vol stationnaire ≈ {0:.0f} %"),
    "lab_note_no_hover": ("PROPULSION = collective · no hover possible", "PROPULSION = poussée collective · vol stationnaire impossible"),
}

MODES: dict[str, tuple[str, str]] = {
    "manual": ("MANUAL STABILISED", "MANUEL STABILISÉ"),
    "angle": ("ANGLE (LAB)", "ANGLE (LABO)"),
    "acro": ("ACRO (LAB)", "ACRO (LABO)"),
    "takeoff": ("TAKE-OFF", "DÉCOLLAGE"),
    "landing": ("LANDING", "ATTERRISSAGE"),
    "mission": ("MISSION", "MISSION"),
}

CAMERAS: dict[str, tuple[str, str]] = {
    "chase": ("CHASE", "POURSUITE"),
    "fpv": ("FIRST PERSON", "VUE PILOTE"),
    "top": ("MAP", "CARTE"),
}

MENU_ENTRIES: dict[str, tuple[str, str]] = {
    "manual": ("Manual", "Manuel"),
    "takeoff": ("Take off", "Décollage"),
    "land": ("Land", "Atterrissage"),
    "mission": ("Mission", "Mission"),
    "restart": ("Restart", "Recommencer"),
    "angle": ("Angle (lab)", "Angle (labo)"),
    "acro": ("Acro (lab)", "Acro (labo)"),
}

MENU_GROUPS: dict[str, tuple[str, str]] = {  # systems/menu.py GROUPS, and the mods' default group
    "flight": ("Flight", "Vol"),
    "assists": ("Assists", "Assistances"),
    "restart": ("Restart", "Recommencer"),
    "laboratory": ("Laboratory", "Laboratoire"),
    "weather": ("Weather", "Météo"),
    "air": ("Air", "Air"),
    "mods": ("Mods", "Mods"),
    "courses": ("Courses", "Parcours"),
}


def menu_group(group: str, language: str) -> str:
    """A menu group's name; a mod's own group by its id, capitalised."""
    pair = MENU_GROUPS.get(group)
    return pair[_index(language)] if pair else group.capitalize()


MISSION_STATUS: dict[str, tuple[str, str]] = {  # flight/assists.py MissionState.status
    "idle": ("idle", "inactive"),
    "climbing": ("climbing", "montée"),
    "transit": ("transit", "transit"),
    "descending": ("descending", "descente"),
    "arrived": ("arrived", "arrivée"),
    "interrupted": ("interrupted", "interrompue"),
    "refused": ("refused", "refusée"),
}

MESSAGES: dict[str, tuple[str, str]] = {
    "controller_connected": ("Controller connected: {0}", "Manette connectée : {0}"),
    "controller_disconnected": ("Controller disconnected: {0}", "Manette déconnectée : {0}"),
    "landing_refused": ("Landing refused: {0}", "Atterrissage refusé : {0}"),
    "mission_interrupted": ("Mission interrupted: {0}", "Mission interrompue : {0}"),
    "mission_refused": ("Mission refused: {0}", "Mission refusée : {0}"),
    "mission_arrived": ("Mission complete: arrived", "Mission terminée : arrivée"),
    "level_reloaded": ("Level reloaded", "Niveau rechargé"),
    "level_reloaded_errors": ("Level reloaded with {0} error(s): {1}", "Niveau rechargé avec {0} erreur(s) : {1}"),
    "battery_low": ("Battery low: {0:.0f} %", "Batterie faible : {0:.0f} %"),
    "battery_depleted": ("Battery empty: motors off", "Batterie vide : moteurs coupés"),
    "impact": ("Impact at {0:.1f} m/s", "Choc à {0:.1f} m/s"),
    "camera": ("Camera: {0}", "Caméra : {0}"),
    "screenshot": ("Screenshot saved: {0}", "Capture enregistrée : {0}"),
    "takeoff_refused": ("Take-off refused: {0}", "Décollage refusé : {0}"),
    "mission_ended": ("Mission ended: {0}", "Mission terminée : {0}"),
    "weather": ("Weather: {0}", "Météo : {0}"),
    "weather_error": ("Weather: {0}", "Météo : {0}"),
    "hud_mode": ("HUD: {0}", "HUD : {0}"),
    "following": ("FOLLOWING DRONE {0}/{1} ({2})", "DRONE SUIVI {0}/{1} ({2})"),
    "following_player": ("Following your drone", "Retour à votre drone"),
    "replay_saved": ("Replay saved to {0}", "Replay enregistré : {0}"),
    "replay_not_saved": ("Replay not saved: {0}", "Replay non enregistré : {0}"),
    "replay_not_saved_playing": ("Replay not saved: a replay is playing", "Replay non enregistré : un replay est en cours"),
    "replay_not_saved_level": ("Replay not saved: the level changed during the flight",
                               "Replay non enregistré : le niveau a changé pendant le vol"),
    "replay_status": ("REPLAY ×{0:g}   {1:.1f} / {2:.1f} s", "REPLAY ×{0:g}   {1:.1f} / {2:.1f} s"),
    "replay_paused": ("{0}   PAUSED", "{0}   EN PAUSE"),
    "replay_end": ("{0}   END", "{0}   FIN"),
    "replay_keys": ("{0} pause   {1} / {2} speed   {3} from the start",
                    "{0} pause   {1} / {2} vitesse   {3} depuis le début"),
}

# weather and air presets by id (the game's and the shipped levels'); a level's own preset with
# another id keeps the name its file gives it
WEATHER_NAMES: dict[str, tuple[str, str]] = {
    "calm": ("Calm", "Calme"),
    "breeze": ("Light breeze", "Petite brise"),
    "gusty": ("Gusty wind", "Vent en rafales"),
    "shower": ("Rain shower, light wind", "Averse, vent léger"),
    "drizzle": ("Drizzle", "Bruine"),
    "thin-air": ("High plateau (thin air, 2000 m)", "Haut plateau (air raréfié, 2000 m)"),
    "sea_level": ("Sea level, 15 °C", "Niveau de la mer, 15 °C"),
    "altitude_2000m": ("2 000 m, ISA (5 °C)", "2 000 m, atmosphère type (5 °C)"),
    "hot_day": ("Hot day, sea level, 35 °C", "Jour chaud, niveau de la mer, 35 °C"),
}

# why an assist refused or stopped (flight/assists.py, systems/assists.py): English pattern → French
REASONS: tuple[tuple[str, str], ...] = (
    (r"no surface under the drone", "aucune surface sous le drone"),
    (r"no support under the drone", "aucun appui sous le drone"),
    (r"surface sloped (.+) \(at most (.+)\)", r"surface inclinée de \1 (au plus \2)"),
    (r"this level has no mission route", "ce niveau n'a pas de route de mission"),
    (r"no mission route in this level", "pas de route de mission dans ce niveau"),
    (r"arrival pad: (.+)", r"plateforme d'arrivée : \1"),
    (r"landed on (.+), not the arrival pad", r"posé sur \1, pas sur la plateforme d'arrivée"),
    (r"obstacle (.+) \((.+)\) (.+) m ahead", r"obstacle \1 (\2) à \3 m devant"),
    (r"surface edge: only (.+) of the drone over it", r"bord de surface : seulement \1 du drone au-dessus"),
    (r"the ground", "le sol"),
)

ACTIONS: dict[str, tuple[str, str]] = {  # game/input/keyboard.py's actions
    "move_forward": ("forward", "avancer"),
    "move_back": ("back", "reculer"),
    "move_left": ("left", "gauche"),
    "move_right": ("right", "droite"),
    "yaw_left": ("yaw left", "lacet gauche"),
    "yaw_right": ("yaw right", "lacet droite"),
    "power_up": ("MotorPower +", "MotorPower +"),
    "power_down": ("MotorPower −", "MotorPower −"),
    "climb": ("climb", "monter"),
    "descend": ("descend", "descendre"),
    "confirm": ("confirm (menu)", "valider (menu)"),
    "brake": ("brake", "freiner"),
    "takeoff": ("take off", "décoller"),
    "land": ("land", "atterrir"),
    "menu": ("menu", "menu"),
    "camera": ("camera", "caméra"),
    "follow_next": ("next drone (cameras, HUD)", "drone suivant (caméras, HUD)"),
    "pause": ("pause", "pause"),
    "restart": ("restart", "recommencer"),
    "fullscreen": ("fullscreen", "plein écran"),
    "screenshot": ("screenshot", "capture d'écran"),
    "hud": ("player / engineering HUD", "HUD joueur / ingénieur"),
    "controls": ("controls overlay", "aide des commandes"),
    "save_replay": ("save the flight as a replay", "enregistrer le vol en replay"),
    "replay_pause": ("replay: pause", "replay : pause"),
    "replay_slower": ("replay: slower", "replay : plus lent"),
    "replay_faster": ("replay: faster", "replay : plus vite"),
    "replay_restart": ("replay: from the start", "replay : depuis le début"),
}

MOTOR_NAMES = ("FR", "RR", "RL", "FL")  # motor index 0..3 (docs/model.md#units-and-frames)


def _index(language: str) -> int:
    return 1 if language == "fr" else 0


def label(key: str, language: str) -> str:
    return LABELS[key][_index(language)]


def action_name(action: str, language: str) -> str:
    pair = ACTIONS.get(action)
    return pair[_index(language)] if pair else action.replace("_", " ")


def mode_name(mode: str, language: str) -> str:
    pair = MODES.get(mode)
    return pair[_index(language)] if pair else mode.upper()


def camera_name(camera: str, language: str) -> str:
    pair = CAMERAS.get(camera)
    return pair[_index(language)] if pair else camera.upper()


def menu_entry(entry_id: str, fallback: str, language: str) -> str:
    """A menu entry's label by its id; the weather and air entries (`weather:<preset>`,
    `air:<preset>`) by their preset's name; a course (`course:<id>`) by its name (level data);
    else `fallback` (a mod's own label)."""
    pair = MENU_ENTRIES.get(entry_id)
    if pair:
        return pair[_index(language)]
    kind, sep, preset = entry_id.partition(":")
    if sep and kind in ("weather", "air"):
        head, _, rest = fallback.partition(": ")
        density = re.search(r" \([^()]*kg/m³\)$", rest)
        name = rest[:density.start()] if density else rest
        text = f"{label('menu_' + kind, language)}{weather_name(preset, name, language)}"
        return text + (density.group(0) if density else "")
    if sep and kind == "course":  # "Course: <name>": under the Courses heading, the course's own name
        return fallback.partition(": ")[2] or fallback
    return fallback


def mission_status(status: str, language: str) -> str:
    pair = MISSION_STATUS.get(status)
    return pair[_index(language)] if pair else status


# statuses after which the route is over: no waypoint to head for, no distance to it
MISSION_OVER = ("arrived", "refused")


def mission_text(mission: MissionRecord, language: str, distance_to: Callable[[int], float | None]) -> str:
    """The HUD's mission line: 'transit · wp 2/6 · 41 m', or just 'arrived'.

    Args:
        mission: telemetry's `mission`.
        distance_to: waypoint index → metres from the drone (or None).
    """
    status = mission.status
    text = mission_status(status, language)
    if status in MISSION_OVER:
        return text
    index = mission.waypoint_index
    distance = None
    if index >= 0:
        total = mission.waypoints
        text += f" · wp {index + 1}/{total}" if total else f" · wp {index + 1}"
        distance = distance_to(index)
    if distance is not None and math.isfinite(distance) and status != "idle":
        text += f" · {distance:.0f} m"
    return text


def message(key: str, language: str, *args) -> str:
    return MESSAGES[key][_index(language)].format(*args)


def weather_name(preset_id: str, fallback: str, language: str) -> str:
    pair = WEATHER_NAMES.get(preset_id)
    return pair[_index(language)] if pair else fallback


def reason(text: str, language: str) -> str:
    """An assist's reason (English, from the flight code) in the HUD's language."""
    if language != "fr":
        return text
    for pattern, french in REASONS:
        m = re.fullmatch(pattern, text)
        if m:
            return m.expand(french)
    return text


def is_assist(mode: str) -> bool:
    return mode in ("takeoff", "landing", "mission")


# -- numbers --------------------------------------------------------------------------------
def signed(value: float, decimals: int = 1) -> str:
    """'+1.2', '-0.4'; never '-0.0'."""
    if abs(value) < 0.5 * 10.0 ** -decimals:
        value = 0.0
    return f"{value:+.{decimals}f}"


def heading_deg(x: float, y: float) -> int:
    """Heading of a world vector in whole degrees counter-clockwise from +X, 0 … 359 (359.7°
    reads 000°, not 360°)."""
    return round(math.degrees(math.atan2(y, x))) % 360


def target_velocity_text(v, language: str) -> str:
    """'4.0 m/s → 090°' (horizontal setpoint and its compass bearing, north = world +Y);
    '0.0 m/s' at rest."""
    h = math.hypot(v[0], v[1])
    if h < 0.05:
        return "0.0 m/s"
    return f"{h:.1f} m/s → {whole_bearing(bearing_deg(v[0], v[1])):03d}°"


def wind_text(wind, language: str) -> str:
    """Speed and the direction it blows *from* (as weather reports say), horizontal."""
    speed = math.hypot(wind[0], wind[1])
    if speed < 0.05:
        return label("calm", language)
    return f"{speed:.1f} m/s {label('from', language)} {wind_from_text(wind)}"


def wind_from_text(wind) -> str:
    """Where the wind comes from, as a compass bearing and point: '045° NE' (north = world +Y)."""
    bearing = wind_from_bearing(wind[0], wind[1])
    return f"{whole_bearing(bearing):03d}° {compass_point(bearing)}"


def rain_note(rain_mm_h: float, language: str) -> str:
    """The line shown while it rains: rain is drawn, its effects on flight are not modelled; and
    how hard it rains."""
    return f"{label('rain_note', language)} ({rain_mm_h:g} mm/h)"


def thousands(value: float) -> str:
    """16 436 → '16 436' (a thin grouping that reads the same in both languages)."""
    return f"{value:,.0f}".replace(",", " ")


# the course run: HUD and results screen (game/render/passes/course_hud.py, course_results.py)
COURSE_TEXTS: dict[str, tuple[str, str]] = {
    "go": ("GO", "PARTEZ"),
    "gate_of": ("GATE {0} / {1}", "PORTE {0} / {1}"),
    "split": ("Gate {0}   {1}", "Porte {0}   {1}"),
    "missed": ("Gate {0} missed: fly back through it", "Porte {0} manquée : repassez-y"),
    "finished": ("COURSE FINISHED", "PARCOURS TERMINÉ"),
    "time": ("Time", "Temps"),
    "par": ("Par", "Par"),
    "best": ("Best", "Record"),
    "new_best": ("New best!", "Nouveau record !"),
    "gold": ("Gold medal", "Médaille d'or"),
    "silver": ("Silver medal", "Médaille d'argent"),
    "bronze": ("Bronze medal", "Médaille de bronze"),
    "none": ("No medal", "Pas de médaille"),
    "splits": ("Splits", "Temps intermédiaires"),
    "retry": ("Retry", "Réessayer"),
    "back": ("Back to the title screen", "Retour à l'écran titre"),
}


def course_text(key: str, language: str, *args) -> str:
    return COURSE_TEXTS[key][_index(language)].format(*args)


def race_time(seconds: float) -> str:
    """A course time: "0:07.25", "1:02.50" (minutes, seconds to the hundredth)."""
    hundredths = round(max(0.0, seconds) * 100.0)
    minutes, rest = divmod(hundredths, 6000)
    return f"{minutes}:{rest // 100:02d}.{rest % 100:02d}"


def race_delta(seconds: float) -> str:
    """A delta to the best: "+0.42", "−0.31" (the minus sign, not a hyphen)."""
    return f"+{seconds:.2f}" if seconds >= 0.0 else f"−{-seconds:.2f}"
