"""Leaves and literal collections: constants, local and global symbols, namespace paths,
vector and map literals, ``reopen``."""

from __future__ import annotations

from spell_runtime.abi import H
from spell_runtime.data import get

from ..analyze import ir
from . import pyast as P
from .base import EmitterBase, FnInfo, Result, Scope


class ValueEmitter(EmitterBase):
    """Emits the IR kinds whose value needs no statements of their own."""

    def e_Const(self, node: ir.Const, scope: Scope, info: FnInfo) -> Result:
        return Result([], self.const(node.value))

    def e_Local(self, node: ir.Local, scope: Scope, info: FnInfo) -> Result:
        var = self.private.get(node.sym)
        if var is not None:
            return Result([], self.private_value(var))
        return Result([], P.subscript(P.name("D"), self.const(node.sym)))

    def e_Global(self, node: ir.Global, scope: Scope, info: FnInfo) -> Result:
        """``D[k] if k in D else _miss(D, k)`` inline where the read may run often (fn bodies, loops:
        a helper call costs a Python call per read, issue 12); in a unit's code outside loops, which
        runs once per evaluation, the same read as one helper call, ``_global(D, k)``."""
        s = self.const(node.sym)
        with P.at(self.fail_pos(node.sym)):  # an unbound symbol fails here
            if self.runs_once(info):
                return Result([], P.callname(H.GLOBAL, P.name("D"), s))
            miss = P.callname(H.MISS_LOOKUP, P.name("D"), s)
        return Result([], P.ifexp(P.compare(s, P.IN, P.name("D")), P.subscript(P.name("D"), s), miss))

    def e_BuiltinRef(self, node: ir.BuiltinRef, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        return Result([], self.const(node.value))

    def e_NsRef(self, node: ir.NsRef, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        keys = P.tuple_([self.const(k) for k in node.keys])
        if node.has_static_root:
            v = node.static_root
            for k in node.keys:
                v = get(v, k)
            if v is not None:
                return Result([], self.const(v))
        with P.at(self.place_pos()):  # a path that leads nowhere fails here
            if node.has_static_root:
                return Result([], P.callname(H.NS_STATIC, self.const(node.static_root), keys, self.const(node.whole)))
            return Result([], P.callname(H.NS_PATH, P.name("D"), self.const(node.root), keys, self.const(node.whole)))

    def e_VectorLit(self, node: ir.VectorLit, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.items, scope, info)
        return Result(stmts, P.callname(H.VEC, P.list_(exprs)))

    def e_MapLit(self, node: ir.MapLit, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.vals, scope, info)
        pairs = [P.tuple_([self.const(k), v]) for k, v in zip(node.keys, exprs)]
        return Result(stmts, P.callname(H.MAP_PAIRS, P.tuple_(pairs)))

    def e_Reopen(self, node: ir.Reopen, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order([node.quine, *node.extras], scope, info)
        with P.at(self.place_pos()):  # its checks of the quine fail here
            return Result(stmts, P.callname(H.REOPEN, exprs[0], P.tuple_(exprs[1:]), self.const(node.form)))
