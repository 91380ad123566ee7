"""Small helpers for the messages the commands print."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 record', '0 records', '2 records'; `plural` for a noun that does not take an s."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
