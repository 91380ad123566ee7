"""Where the drones' numbers live: one row per drone in a few shared 2-D arrays.

Every drone keeps its per-tick numbers in flat arrays (RigidBody.state, Rotors.state, … see
components/layout.py). For one drone, each could be an array of its own; for many, the fixed
tick would then pay Python's and numba's call costs once per drone. So a `FleetStore` (a
resource) lays the arrays of a drone side by side in one *row* of a 2-D float64 array, a
*block*, and gives each component a 1-D view of its columns: the component still reads and
writes `body.position` as before, and the compiled fleet kernels (flight/fleet.py) run over
every row of a block in one call.

- Column groups are named (`"body"`, `"rotors"`, …, and any a system asks for, such as the
  contact results) and fixed when the store is made: `store.columns["body"]` is a slice.
- A block holds `rows_per_block` drones. When it is full a new block is added; rows never
  move, so a component's view is its for life (a removed drone's row is reused later).
- `store.rows(block)` is the int64 array of the rows in use in that block, kept sorted by
  creation, rebuilt only when a drone comes or goes (`store.version` counts the changes).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np


class FleetStore:
    """Rows of drone numbers in blocks of `rows_per_block`.

    Args:
        groups: (name, width) of each column group, in column order.
        rows_per_block: drones per block (a new block is added when all are taken).
    """

    def __init__(self, groups: Iterable[tuple[str, int]], rows_per_block: int = 64) -> None:
        self.columns: dict[str, slice] = {}
        at = 0
        for name, width in groups:
            if name in self.columns:
                raise ValueError(f"column group {name!r} declared twice")
            self.columns[name] = slice(at, at + int(width))
            at += int(width)
        self.width = at
        self.rows_per_block = rows_per_block
        self.blocks: list[np.ndarray] = []
        self._used: list[list[int]] = []  # per block: the rows in use, in creation order
        self._rows: list[np.ndarray] = []  # the same as int64 arrays, for the kernels
        self._serial = 0
        self._born: dict[tuple[int, int], int] = {}  # (block, row) → creation serial
        self.version = 0  # bumped whenever a row is taken or given back

    def column(self, name: str) -> int:
        """The first column of a group (the kernels index from it)."""
        return self.columns[name].start

    def allocate(self) -> tuple[int, int]:
        """A free row (its numbers zeroed): (block index, row index)."""
        for b, used in enumerate(self._used):
            if len(used) < self.rows_per_block:
                row = min(set(range(self.rows_per_block)) - set(used))
                break
        else:
            self.blocks.append(np.zeros((self.rows_per_block, self.width)))
            self._used.append([])
            self._rows.append(np.zeros(0, dtype=np.int64))
            b, row = len(self.blocks) - 1, 0
        self.blocks[b][row] = 0.0
        self._used[b].append(row)
        self._born[(b, row)] = self._serial
        self._serial += 1
        self._changed(b)
        return b, row

    def release(self, block: int, row: int) -> None:
        """Give a row back (its drone is gone)."""
        self._used[block].remove(row)
        del self._born[(block, row)]
        self.blocks[block][row] = np.nan  # a stale view read after removal shows it at once
        self._changed(block)

    def view(self, block: int, row: int, group: str) -> np.ndarray:
        """The 1-D view of one drone's column group (contiguous, written in place)."""
        return self.blocks[block][row, self.columns[group]]

    def rows(self, block: int) -> np.ndarray:
        """The rows in use in `block`, in creation order (int64, for the kernels)."""
        return self._rows[block]

    def owner(self, array: np.ndarray) -> tuple[int, int] | None:
        """(block, row) when `array` is a view into a row of this store, else None."""
        base = array.base
        for b, block in enumerate(self.blocks):
            if base is block:
                offset = array.__array_interface__["data"][0] - block.__array_interface__["data"][0]
                return b, offset // block.strides[0]
        return None

    def _changed(self, block: int) -> None:
        used = self._used[block]
        self._rows[block] = np.array(sorted(used, key=lambda r: self._born[(block, r)]), dtype=np.int64)
        self.version += 1
