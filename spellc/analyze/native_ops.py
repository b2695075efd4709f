"""The native operators: core builtins lowered, at one fixed arity, to Python operations with Spell
semantics (architecture.md §2.2; house review change 2).

This table is the one place the operator vocabulary is written on the compiler side. The analyzer
finds a call's operator here by (Spell name, arity); ``ir.NativeOp.op`` holds the operator's ``name``;
the IR and the analyzer read the facts they need from its columns; the emitter picks the builder
for its ``family`` (``emit.natives``) and falls back to the runtime's ``_op_<name>`` helper
(``spell_runtime.abi.H.op``) for the uncommon case. The IR never sees Python ``ast``.
"""

from __future__ import annotations

from typing import NamedTuple


class NativeOpSpec(NamedTuple):
    name: str
    """The operator's name in the IR and in its runtime helper ``_op_<name>``."""
    spell: str
    """The core builtin it lowers."""
    arity: int
    family: str
    """How it is emitted (``emit.natives.NativeEmitter`` has one builder per family):
    ``arith`` (+ - * with the long overflow rule), ``compare`` (< > <= >=), ``step`` (inc dec),
    ``neg``, ``num_pred`` (zero? pos? neg?), ``eq`` (= not=), ``identity`` (nil? some? true?
    false? not), ``coll`` (collection access with a fast path for the common type)."""
    returns_bool: bool = False
    """Its value is always true or false (an ``if`` on it needs no truthiness test)."""
    may_be_map: bool = False
    """Its value can be any value, a map (and so a recur request) included."""
    keeps_long: bool = False
    """Given longs, it yields a long (or fails): its result needs no type test downstream."""


NATIVE_OP_SPECS: tuple[NativeOpSpec, ...] = (
    NativeOpSpec("add", "+", 2, "arith", keeps_long=True),
    NativeOpSpec("sub", "-", 2, "arith", keeps_long=True),
    NativeOpSpec("mul", "*", 2, "arith", keeps_long=True),
    NativeOpSpec("neg", "-", 1, "neg"),
    NativeOpSpec("lt", "<", 2, "compare", returns_bool=True),
    NativeOpSpec("gt", ">", 2, "compare", returns_bool=True),
    NativeOpSpec("le", "<=", 2, "compare", returns_bool=True),
    NativeOpSpec("ge", ">=", 2, "compare", returns_bool=True),
    NativeOpSpec("eq", "=", 2, "eq", returns_bool=True),
    NativeOpSpec("ne", "not=", 2, "eq", returns_bool=True),
    NativeOpSpec("inc", "inc", 1, "step", keeps_long=True),
    NativeOpSpec("dec", "dec", 1, "step", keeps_long=True),
    NativeOpSpec("zero", "zero?", 1, "num_pred", returns_bool=True),
    NativeOpSpec("pos", "pos?", 1, "num_pred", returns_bool=True),
    NativeOpSpec("negp", "neg?", 1, "num_pred", returns_bool=True),
    NativeOpSpec("nil", "nil?", 1, "identity", returns_bool=True),
    NativeOpSpec("some", "some?", 1, "identity", returns_bool=True),
    NativeOpSpec("not", "not", 1, "identity", returns_bool=True),
    NativeOpSpec("true", "true?", 1, "identity", returns_bool=True),
    NativeOpSpec("false", "false?", 1, "identity", returns_bool=True),
    NativeOpSpec("conj", "conj", 2, "coll", may_be_map=True),
    NativeOpSpec("get", "get", 2, "coll", may_be_map=True),
    NativeOpSpec("count", "count", 1, "coll"),
    NativeOpSpec("nth", "nth", 2, "coll", may_be_map=True),
    NativeOpSpec("first", "first", 1, "coll", may_be_map=True),
    NativeOpSpec("assoc", "assoc", 3, "coll", may_be_map=True),
)

BY_CALL: dict[tuple[str, int], NativeOpSpec] = {(s.spell, s.arity): s for s in NATIVE_OP_SPECS}
"""(Spell name, argument count) → the operator a call of that unshadowed builtin lowers to."""

BY_NAME: dict[str, NativeOpSpec] = {s.name: s for s in NATIVE_OP_SPECS}
"""``ir.NativeOp.op`` → its operator."""

__all__ = ["NativeOpSpec", "NATIVE_OP_SPECS", "BY_CALL", "BY_NAME"]
