"""Native operators (arithmetic, comparison, collection access, predicates): the common case
inline — e.g. a long addition with its overflow check — and the library function otherwise.

The operators and their facts are listed once, in ``analyze.native_ops``; here each family
has one builder (``NativeEmitter._LOWER``)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, ClassVar, Optional

from spell_runtime.abi import H
from spell_runtime.data import LONG_MAX, LONG_MIN, Keyword, Symbol

from ..analyze import ir
from ..analyze.native_ops import BY_NAME
from . import pyast as P
from .base import FnInfo, Result, Scope
from .values import ValueEmitter


class NativeEmitter(ValueEmitter):
    """Emits ``NativeOp`` nodes: one builder per operator family (``_LOWER``, filled below the class)."""

    _LOWER: ClassVar[dict[str, _Builder]]

    def e_NativeOp(self, node: ir.NativeOp, scope: Scope, info: FnInfo) -> Result:
        """A native operator with its common case inline where it may run often (fn bodies, loops);
        in a unit's code outside loops, which runs once per evaluation, the library function alone,
        which is what the inline code's other branch calls (issue 12: a unit's ``(count xs)`` is
        ``_op_count(x)``, 9 nodes fewer; as ``ValueEmitter.e_Global`` writes ``_global`` there).
        ``identity`` and ``eq`` operators stay inline: they are ``is`` tests, as short as a call."""
        info.static_refs = True
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            if self.runs_once(info) and BY_NAME[node.op].family in _ONCE_AS_CALL:
                return Result(stmts, P.callname(H.op(node.op), *exprs))
            return Result(stmts, self.native(node.op, exprs))

    def _operand(self, e: ast.expr) -> tuple[ast.expr, ast.expr, Optional[Any]]:
        """(expression that evaluates it once into a temp, expression reading it, constant value or None).

        The "constant" is ``KNOWN_INT`` for an operand that certainly holds a long."""
        if isinstance(e, ast.Constant):
            return e, e, e.value
        if isinstance(e, ast.Name):
            if e.id in self.int_vars:
                return e, e, KNOWN_INT
            if e.id.startswith("_k") or e.id.startswith("_t"):
                v = self.consts.get(e.id, None) if e.id.startswith("_k") else None
                return e, e, v
        t = self.tmp("_a")
        return P.walrus(t, e), P.name(t), (KNOWN_INT if id(e) in self.int_exprs else None)

    def native(self, op: str, args: list[ast.expr]) -> ast.expr:
        """The inline code of native operator ``op`` (``analyze.native_ops``) on evaluated ``args``."""
        spec = BY_NAME[op]
        e = self._LOWER[spec.family](self, op, args)
        if spec.keeps_long and all(self._operand_is_int(a) for a in args):
            self.int_exprs[id(e)] = e
        return e

    def _operand_is_int(self, e: ast.expr) -> bool:
        if isinstance(e, ast.Constant):
            return type(e.value) is int
        if isinstance(e, ast.Name):
            return e.id in self.int_vars
        return id(e) in self.int_exprs

    def _longs_tested(self, op: str, args: list[ast.expr]) -> Optional[tuple[Optional[ast.expr], bool, ast.expr,
                                                                           ast.expr, ast.expr, ast.expr]]:
        """For a binary numeric operator: (the test that both operands are longs, evaluating both in
        order — None when both certainly are —, whether both are known longs, reader of a, reader
        of b, evaluator of a, evaluator of b); None when no inline fast path can apply.

        When both are known longs the test is None and the evaluators (walrus expressions for
        operands that are not plain names or literals) go straight into the operation: ``(_a1 :=
        f()) + (_a2 := g())`` evaluates them in the same order, with no ``is not _NOTHING`` tests."""
        ops = [self._operand(args[0]), self._operand(args[1])]
        (_, a, ac), (_, b, bc) = ops
        if type(ac) is int and type(bc) is int or _known_non_int(ac) or _known_non_int(bc):
            return None
        (ea, _, _), (eb, _, _) = ops
        if _is_int(ac) and _is_int(bc):
            return None, True, a, b, ea, eb
        if not _is_int(ac) and not _is_int(bc):
            return P.types_are(ea, eb, P.name("int")), False, a, b, a, b
        parts: list[ast.expr] = []
        for e_, _, c_ in ops:
            if _is_int(c_):
                if isinstance(e_, ast.NamedExpr):
                    parts.append(P.is_not(e_, P.name(H.NOTHING)))
            else:
                parts.append(P.is_(P.callname("type", e_), P.name("int")))
        return P.bitand(*parts), False, a, b, a, b

    def _arith(self, op: str, args: list[ast.expr]) -> ast.expr:
        """``(+ a b)`` → ``_r if type(a) is int & type(b) is int and MIN <= (_r := a + b) <= MAX else _op_add(a, b)``."""
        tested = self._longs_tested(op, args)
        if tested is None:
            return P.callname(H.op(op), args[0], args[1])
        evaluated, typed, a, b, ea, eb = tested
        if typed and self._stays_long(op, args):
            return P.binop(ea, _PYOP[op](), eb)
        r = self.tmp("_r")
        ac, bc = (x.value if isinstance(x, ast.Constant) else None for x in args)
        rng = self._range_test(op, ac, bc, P.walrus(r, P.binop(ea, _PYOP[op](), eb)))
        cond = P.and_(evaluated, rng) if evaluated is not None else rng
        return P.ifexp(cond, P.name(r), P.callname(H.op(op), a, b))

    def _range_of(self, e: ast.expr) -> Optional[tuple[int, int]]:
        """The range a long operand certainly lies in: a literal's value, or an ``if`` test's proof
        about a fixed long local (``bounds``); None when nothing narrower than the long range is known."""
        if isinstance(e, ast.Constant) and type(e.value) is int:
            return e.value, e.value
        if isinstance(e, ast.Name):
            return self.int_ranges.get(e.id)
        return None

    def _stays_long(self, op: str, args: list[ast.expr]) -> bool:
        """Whether ``a op b`` on two longs certainly stays in the long range (its test is dead)."""
        if op not in ("add", "sub"):
            return False
        ra, rb = self._range_of(args[0]), self._range_of(args[1])
        if ra is None or rb is None:
            return False
        lo, hi = (ra[0] + rb[0], ra[1] + rb[1]) if op == "add" else (ra[0] - rb[1], ra[1] - rb[0])
        return LONG_MIN <= lo and hi <= LONG_MAX

    def _compare(self, op: str, args: list[ast.expr]) -> ast.expr:
        """``(< a b)`` → ``a < b if type(a) is int & type(b) is int else _op_lt(a, b)`` (just ``a < b`` on longs)."""
        tested = self._longs_tested(op, args)
        if tested is None:
            return P.callname(H.op(op), args[0], args[1])
        evaluated, typed, a, b, ea, eb = tested
        if typed:
            return P.compare(ea, _CMPOP[op](), eb)
        test = P.compare(a, _CMPOP[op](), b)
        assert evaluated is not None
        return P.ifexp(evaluated, test, P.callname(H.op(op), a, b))

    def _step(self, op: str, args: list[ast.expr]) -> ast.expr:
        """``(inc a)`` → ``_r if type(a) is int and (_r := a + 1) <= MAX else _op_inc(a)``."""
        ae, a, ac = self._operand(args[0])
        r = self.tmp("_r")
        if type(ac) is int or _known_non_int(ac):
            return P.callname(H.op(op), args[0])
        known = ac is KNOWN_INT
        if known and self._stays_long("add" if op == "inc" else "sub", [args[0], P.const(1)]):
            return P.binop(ae, P.ADD if op == "inc" else P.SUB, P.const(1))
        if op == "inc":
            bound = P.compare(P.walrus(r, P.binop(ae if known else a, P.ADD, P.const(1))), P.LT_E,
                              P.const(LONG_MAX))
        else:
            bound = P.compare(P.walrus(r, P.binop(ae if known else a, P.SUB, P.const(1))), P.GT_E,
                              _long_min())
        test = bound if known else P.and_(P.is_(P.callname("type", ae), P.name("int")), bound)
        return P.ifexp(test, P.name(r), P.callname(H.op(op), a))

    def _neg(self, op: str, args: list[ast.expr]) -> ast.expr:
        return P.callname(H.op("neg"), args[0])  # no inline case: negating a long can overflow

    def _num_pred(self, op: str, args: list[ast.expr]) -> ast.expr:
        """``(zero? a)`` → ``a == 0 if type(a) is int else _op_zero(a)``."""
        ae, a, ac = self._operand(args[0])
        if _known_non_int(ac):
            return P.callname(H.op(op), args[0])
        return P.ifexp(P.is_(P.callname("type", ae), P.name("int")), P.compare(a, _ZERO_CMPOP[op](), P.const(0)),
                       P.callname(H.op(op), a))

    def _identity(self, op: str, args: list[ast.expr]) -> ast.expr:
        """``nil?``, ``some?``, ``true?``, ``false?`` and ``not`` as ``is`` tests."""
        if op == "not":
            ae, a, _ = self._operand(args[0])
            return P.or_(P.is_(ae, P.const(None)), P.is_(a, P.const(False)))
        if op == "some":
            return P.is_not(args[0], P.const(None))
        return P.is_(args[0], P.const(_IDENTITY_OF[op]))

    def _eq_op(self, op: str, args: list[ast.expr]) -> ast.expr:
        e = self._eq(args[0], args[1])
        return P.not_(e) if op == "ne" else e

    @staticmethod
    def _range_test(op: str, ac: Any, bc: Any, result: ast.expr) -> ast.expr:
        """The long-range test of ``result`` (a walrus computing ``a op b``).

        With a literal long operand one side of the test is dead (issue 13.1): both operands are
        longs when the test runs (``type(x) is int`` holds only for values in the long range;
        bigger integers are ``BigInt``s), so ``x + c`` with ``c >= 0`` cannot fall below
        ``LONG_MIN`` and ``x - c`` cannot pass ``LONG_MAX``; a test that cannot fail changes nothing.
        """
        lit = bc if type(bc) is int else (ac if type(ac) is int and op == "add" else None)
        if lit is not None and op in ("add", "sub"):
            upward = (lit >= 0) == (op == "add")  # the result can only grow past the top
            if upward:
                return P.compare(result, P.LT_E, P.const(LONG_MAX))
            return P.compare(result, P.GT_E, _long_min())
        return P.chain(_long_min(), [P.LT_E, P.LT_E], [result, P.const(LONG_MAX)])

    def _coll_op(self, op: str, args: list[ast.expr]) -> ast.expr:
        """A collection builtin with its most common case inline and the library function otherwise."""
        ops = [self._operand(a) for a in args]
        c_eval, c = ops[0][0], ops[0][1]
        rest_eval = [P.is_not(e_, P.name(H.NOTHING)) for e_, _, _ in ops[1:] if isinstance(e_, ast.NamedExpr)]
        readers = [r for _, r, _ in ops]
        slow = P.callname(H.op(op), *readers)
        if isinstance(args[0], ast.Constant):
            # A literal collection operand (nil, a number, a string) never passes the inline type test,
            # and inlining it would write e.g. ``None[0]``, which CPython's compiler warns about.
            return slow
        if op == "count":
            test: ast.expr = P.is_(P.callname("type", c_eval), P.name(H.PVECTOR))
            return P.ifexp(test, P.callname("len", c), slow)
        if op == "first":
            test = P.and_(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)), P.callname("len", c))
            return P.ifexp(test, P.subscript(c, P.const(0)), slow)
        if op == "conj":
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "append"), readers[1]), slow)
        if op == "get":
            if type(ops[1][2]) is Keyword:
                if isinstance(args[0], ast.Name):  # a plain read: no temp needed
                    c_eval = c = args[0]
                    slow = P.callname(H.op(op), c, readers[1])
                return self._keyword_read([P.is_(P.callname("type", c_eval), P.name(H.SPELL_MAP)), *rest_eval], c,
                                          readers[1], None, slow)
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.SPELL_MAP)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "get"), readers[1]), slow)
        if op == "assoc":
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.SPELL_MAP)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "assoc"), readers[1], readers[2]), slow)
        assert op == "nth"
        i_eval = ops[1][0]
        test = P.and_(P.bitand(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)),
                               P.is_(P.callname("type", i_eval), P.name("int"))),
                      P.chain(P.const(0), [P.LT_E, P.LT], [readers[1], P.callname("len", c)]))
        return P.ifexp(test, P.subscript(c, readers[1]), slow)

    def _keyword_read(self, test: list[ast.expr], m: ast.expr, kw: ast.expr, default: Optional[ast.expr],
                      slow: ast.expr) -> ast.expr:
        """A ``SpellMap`` read by a literal keyword key, inline (issue 13.3), when ``test`` (the
        operands' evaluation and ``type(m) is _SpellMap``) holds; ``slow`` (the library's ``get``)
        otherwise::

            m._r.get(k, _NO_ENTRY)[1] if test else slow
            (_e[1] if (_e := m._r.get(k)) is not None else default) if test else slow

        the second with a ``default`` (``(:k m default)``, a name or constant read: already evaluated).

        Exactly ``SpellMap.get`` inlined: a keyword is one of the raw key types, so it is its own
        key, and a map's entry reader ``_r`` (its dict, or its HAMT tier's ``TierReader``:
        ``data.hashmap``) maps it to its (key, value) entry; ``_NO_ENTRY`` is ``(None, None)``,
        so an absent key reads nil. The read calls nothing that can fail (a dict's or the HAMT's
        ``get`` of a keyword). Short on purpose: it is written at every such site (cold compile
        and built size, issue 12)."""
        guard = P.bitand(*test)
        reader = P.attr(P.attr(m, "_r"), "get")
        if default is None:
            return P.ifexp(guard, P.subscript(P.call(reader, kw, P.name(H.NO_ENTRY)), P.const(1)), slow)
        e = self.tmp("_e")
        found = P.is_not(P.walrus(e, P.call(reader, kw)), P.const(None))
        return P.ifexp(guard, P.ifexp(found, P.subscript(P.name(e), P.const(1)), default), slow)

    def keyword_lookup(self, m: ast.expr, kw: ast.expr, default: list[ast.expr]) -> ast.expr:
        """``(:k m)`` / ``(:k m default)`` with a literal keyword head (issue 13.3), on evaluated
        operands: a ``SpellMap`` (exact type) is read inline (``_keyword_read``), whatever its tier;
        anything else — nil, sets, vectors, sorted maps and records, strings, other values — calls
        ``_get`` exactly as the unoptimised code does.

        Legality: the keyword's call is ``data.lookup.get(m, k, default)`` (``_lookup_self``, which
        is what ``_get`` is), whose first case for ``type(m) is SpellMap`` is the read inlined here,
        so both give the same value, and the read cannot fail or call anything. The operands are
        evaluated once each, in source order, inside the type test (one that is not a plain name
        or constant is bound there by a walrus), so a failing or effectful default runs exactly as
        before; the expression keeps the call form's position for anything that fails inside it.
        Calls of a keyword with no argument or more than two are ordinary calls, not this."""
        if isinstance(m, ast.Constant):  # a literal (nil, a number...) never passes the type test
            return P.callname(H.GET, m, kw, *default)
        m_eval, m_r = (m, m) if isinstance(m, ast.Name) else self._operand(m)[:2]
        test = [P.is_(P.callname("type", m_eval), P.name(H.SPELL_MAP))]
        readers: list[ast.expr] = []
        for a in default:
            a_eval, a_r, _ = self._operand(a)
            if isinstance(a_eval, ast.NamedExpr):
                test.append(P.is_not(a_eval, P.name(H.NOTHING)))
            readers.append(a_r)
        return self._keyword_read(test, m_r, kw, readers[0] if readers else None,
                                  P.callname(H.GET, m_r, kw, *readers))

    def _eq(self, x: ast.expr, y: ast.expr) -> ast.expr:
        (xe, xa, xc), (ye, ya, yc) = self._operand(x), self._operand(y)
        c: Any  # typed: mypyc rejects a loop variable inferred as None
        for c in (yc, xc):
            if c is None and (isinstance(y, ast.Constant) if c is yc else isinstance(x, ast.Constant)):
                return P.is_(xe, ye)
            if type(c) in (Keyword, Symbol, bool):
                return P.is_(xe, ye)
        return P.ifexp(P.types_are(xe, ye, P.name("int")), P.compare(xa, P.EQ, ya), P.callname(H.SPELL_EQ, xa, ya))


_Builder = Callable[[Any, str, list[ast.expr]], ast.expr]

NativeEmitter._LOWER = {
    "arith": NativeEmitter._arith,
    "compare": NativeEmitter._compare,
    "step": NativeEmitter._step,
    "neg": NativeEmitter._neg,
    "num_pred": NativeEmitter._num_pred,
    "identity": NativeEmitter._identity,
    "eq": NativeEmitter._eq_op,
    "coll": NativeEmitter._coll_op,
}

_ONCE_AS_CALL = frozenset({"arith", "compare", "step", "neg", "num_pred", "coll"})
"""Families whose inline code falls back to ``H.op(op)`` of the same operands (``e_NativeOp``)."""

_PYOP: dict[str, Callable[[], ast.operator]] = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult}
_CMPOP: dict[str, Callable[[], ast.cmpop]] = {"lt": ast.Lt, "gt": ast.Gt, "le": ast.LtE, "ge": ast.GtE}
_ZERO_CMPOP: dict[str, Callable[[], ast.cmpop]] = {"zero": ast.Eq, "pos": ast.Gt, "negp": ast.Lt}
_IDENTITY_OF: dict[str, Any] = {"nil": None, "true": True, "false": False}


class _KnownInt:
    """Marks an operand that certainly holds a long (no type test needed)."""


KNOWN_INT: Any = _KnownInt()


def _is_int(c: Any) -> bool:
    return type(c) is int or c is KNOWN_INT


def _known_non_int(c: Any) -> bool:
    """An operand's known constant value that is certainly not a long (a float literal, a ratio...)."""
    return c is not None and type(c) is not int and c is not KNOWN_INT


def _long_min() -> ast.expr:
    """-2**63 written as unparse/parse round-trips it (a negated literal), keeping both compile paths alike."""
    return P.neg(P.const(-LONG_MIN))
