"""Plain data: one dataclass per concern, no behaviour. Units in field names or comments."""

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from components.world import Collider, Trail

__all__ = ["Airframe", "Battery", "Collider", "Controller", "RigidBody", "Rotors", "Trail"]
