"""The C persistent vector constructor, imported without the rest of pyrsistent.

``import pyrsistent`` loads its maps, sets, records and type checks too (~10 ms
of start-up); Spell only needs the C vector, which lives in the ``pvectorc``
extension module that pyrsistent ships.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    from pvectorc import pvector as _c_pvector  # type: ignore[import-not-found]

    pvector: Callable[..., Any] = _c_pvector
except ImportError:  # pragma: no cover - pyrsistent built without its C extension
    from pyrsistent import pvector as _py_pvector

    pvector = _py_pvector

__all__ = ["pvector"]
