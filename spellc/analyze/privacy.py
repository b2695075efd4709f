"""When a binding may live in a Python local instead of the shared binding table ``D``.

Dynamic scoping means any Spell function called while a binding is live can read
it, so bindings go into ``D`` (see ``spell_runtime.context``). But a ``let``,
``loop`` or function body whose code calls no Spell function, user macro or
env-taking builtin cannot be observed by anyone: its bindings are *private* and
compile to Python locals — at Python speed, with no save/restore.

The test is conservative and looks only at the IR of the same compiled function
(``fn`` literals inside are separate functions; they cannot run while the scope
is live unless something in the scope calls them, which the rules exclude):

* no ``Call`` (unknown head: a Spell function or a macro might read the env),
  no env-taking ``BuiltinCall`` (``map``, ``reduce``... call Spell functions);
* no ``try`` (its catch re-enters the failure env) and no ``for``;
* nested ``let``/``loop`` only if private themselves;
* no ``def``/``quine`` of one of the scope's names, no namespace path rooted in one;
* every binding pattern is a plain symbol.

A private scope adds its names to the env of any error passing through it, so
error results still show them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from spell_runtime.data import Symbol

from . import ir


def _children(node: Any) -> Iterator[Any]:
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, (ir.Node, ir.Binding, ir.ForIter, ir.ForWhen, ir.ForLet)):
                yield item


def observable(nodes: Any, names: frozenset[Symbol]) -> bool:
    """True if code in ``nodes`` (one compiled function) could observe or clash with ``names`` in the env."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.Call or t is ir.Try or t is ir.For or t is ir.Reopen:
            return True
        if t is ir.BuiltinCall and n.env:
            return True
        if (t is ir.Let or t is ir.Loop) and not n.private:
            return True
        if (t is ir.Def or t is ir.Quine) and n.sym in names:
            return True
        if t is ir.NsRef and not n.has_static_root and n.root in names:
            return True
        if t is ir.Fn:
            continue  # a separate compiled function
        stack.extend(_children(n))
    return False


def plain_symbols(patterns: Any) -> bool:
    return all(type(p) is Symbol for p in patterns)
