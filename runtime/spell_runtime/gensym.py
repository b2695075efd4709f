"""The one process-wide counter behind every generated symbol.

Clojure draws ``#()`` parameter names (``p1__123#``), auto-gensyms and ``gensym``
results from a single ``RT.nextID()``; Spell keeps that shape (language.md §10.1)
because uniqueness across the reader, the macro expander and the ``gensym``
builtin is what makes their symbols safe to mix in one expansion. The lock makes
the counter safe for futures running on other threads (and on free-threaded
builds, where ``next()`` on a shared iterator is not atomic).
"""

from __future__ import annotations

import itertools
import threading

from .data.atoms import Symbol

_counter = itertools.count(1)
_lock = threading.Lock()


def next_id() -> int:
    """A number never returned before in this process."""
    with _lock:
        return next(_counter)


def gensym(prefix: str = "G__") -> Symbol:
    """A fresh unqualified symbol ``<prefix><n>``, as Clojure's ``gensym``."""
    return Symbol(prefix + str(next_id()))
