"""The Tello SDK server: `donify tello` (game/tello/server.py), its protocol and helpers."""
