"""Every event name the game dispatches, with its payload. One module, so a modder finds them.

Handlers are registered with `app.on(NAME, handler)`; esper keeps weak references, so pass
bound methods of long-lived objects, never lambdas.
"""

MODE_CHANGED = "mode_changed"  # (old: str, new: str)
ARMED = "armed"  # ()  MotorPower left zero: motors re-armed from the present state
DISARMED = "disarmed"  # (reason: str)  "motor_power_zero" | "battery_depleted" | "landed"
BATTERY_LOW = "battery_low"  # (fraction: float)  once when the pack falls below 20 %
BATTERY_DEPLETED = "battery_depleted"  # ()
IMPACT = "impact"  # (speed_m_s: float, normal: tuple[float, float, float], damage: float)  normal out of the surface; damage: the total after it (0..1)
TOUCHDOWN = "touchdown"  # (height_m: float)  resting contact began; world z of the supporting surface
MENU_OPENED = "menu_opened"  # ()
MENU_CLOSED = "menu_closed"  # ()
MENU_SELECTED = "menu_selected"  # (entry: str)
RESET = "reset"  # ()  Restart / ResetFlight
MESSAGE = "message"  # (text: str)  a line for the HUD's message area
CONTROLLER_CONNECTED = "controller_connected"  # (name: str)
CONTROLLER_DISCONNECTED = "controller_disconnected"  # (name: str)
LANDING_REFUSED = "landing_refused"  # (reason: str)
MISSION_STATUS = "mission_status"  # (status: str, waypoint_index: int)
LEVEL_RELOADED = "level_reloaded"  # (errors: list[str])  empty list: reloaded fine
UI_CLICK = "ui_click"  # ()
