"""The binding epoch: the one cell of compiler state that compiled code reads (as ``_EPOCH``).

Bumped by the compiler whenever code binds a core builtin name for the first time; compiled
function bodies that refer to builtins directly re-compile when it has moved (see
``spellc.analyze.bound``; the compiler's other state is listed in ``spellc.state``). It lives in a
module of its own, importing nothing, so that the analyzer and the emitter can read it without
importing the runtime's support code (house review §4: the compiler leaves the runtime's import circle).
"""

from __future__ import annotations

EPOCH: list[int] = [0]

__all__ = ["EPOCH"]
