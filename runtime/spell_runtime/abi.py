"""The contract between generated code and the runtime: every name compiled Spell code uses, in one place.

The emitter (``spellc.emit``) writes only names from ``H`` for runtime helpers, and
``compiled_namespace()`` — built from ``H`` — is what every compiled module (in memory, or written
by ``spellc build``) gets as its globals; ``tests/spellc/emit/test_abi.py`` compiles a corpus and
checks that every global name generated code reads is defined here or by the module itself
(architecture.md §2, house-review change 3).

Conventions of generated code, besides the helpers:

==========  ================================================================================
``D``       the binding table of the evaluation (``spell_runtime.context``): a parameter of
            every unit and compiled function body.
``_H``      the head form of the call that applied a compiled body (its name in error traces);
            ``None`` when a builtin applied it (``invoke.call_spell_fn``), which is also how a
            body knows to hand a non-tail ``recur`` back as a value (§8.1 step 5).
``_U``      a unit's list of undo entries for the definitions that escape it.
``_T``      the module's position table: call position → call form (``support.conv``);
            a ``support.SpanTable`` in modules written by ``spellc build``.
``_e``      the exception a unit's handler converted in modules built before issue 12 (handlers
            now bind no name: their helpers read the exception, ``D``, ``_H`` and ``_T`` from
            the frame, ``spell_runtime.frame_paths``).
``_kN``     constants (quoted forms, keywords, builtins); in built modules, entry N of the
            module's constants text (``spell_runtime.built_constants``).
``_fnN``    compiled ``fn`` bodies, ``code(D, head, *args)``: the calling convention relied on
            by ``invoke``, ``support.apply_fn``, the compiler's macro expansion and the emitter.
temps       ``_a`` argument, ``_f`` call head, ``_ty`` its type, ``_mr`` a published macro call's result,
            ``_t``/``_v``/``_r`` values, ``_o`` a saved binding, ``_u`` a scope's undo list,
            ``_ci`` the running element of a body sequence (a fn body's own is ``_ci`` unnumbered:
            its handler reads it), ``_l``/``_lv``/``_p`` private
            locals, loop variables and parameters, ``_lr``/``_lt``/``_rt`` loop results and
            recur tuples; numbered per Python function. ``_mx``: the activation's flag, a list marked
            once something may have bound a core name in its frame (``spellc.emit.late``).
==========  ================================================================================
"""

from __future__ import annotations

import operator
from typing import Any, Final, Optional

from .library import load as load_library


class H:
    """Runtime helper names as generated code spells them (one ``Final`` per name)."""

    # sentinels and types compared against
    MISS: Final = "_MISS"
    NOTHING: Final = "_NOTHING"
    NO_ENTRY: Final = "_NO_ENTRY"  # (None, None): a map dict's read of an absent key (emit.natives)
    SPELL_FN: Final = "_SpellFn"
    SPELL_MAP: Final = "_SpellMap"
    SPELL_ERROR: Final = "_SpellError"
    MAYBE_RECUR: Final = "_MAYBE_RECUR"  # the types a recur request can have (a map or a marker)
    PVECTOR: Final = "_PVector"
    EPOCH: Final = "_EPOCH"
    MOVED: Final = "_MOVED"  # issue 12: a body compiled at epoch 0 tests this (``epoch.MOVED``)
    # lookups and bindings
    MISS_LOOKUP: Final = "_miss"
    GLOBAL: Final = "_global"  # issue 12: a global read in code that runs once (unit code outside loops)
    NS_PATH: Final = "_ns_path"
    NS_STATIC: Final = "_ns_static"
    REC: Final = "_rec"
    DEFINE: Final = "_define"
    DEF_VALUE: Final = "_def_value"  # built modules: a top-level def's unit, no function (spell_runtime.units)
    DEF_FN: Final = "_def_fn"
    UNWIND: Final = "_unwind"
    RESTORE: Final = "_restore"
    PUBLISH: Final = "_publish"
    DESTRUCTURE: Final = "_destructure"
    LOOP_REBIND: Final = "_loop_rebind"
    PRIVATE_REBIND: Final = "_private_rebind"
    # calls and their rare paths
    # ``_apply`` and ``_macro_call`` are what call sites wrote before ``_applier``/``_macro_into``, and
    # ``_macro_into`` what they wrote before ``_macro_here`` (issue 12):
    # kept so modules built by earlier versions (packages) still load and run.
    APPLY: Final = "_apply"
    MACRO_CALL: Final = "_macro_call"
    IS_MACRO: Final = "_is_macro"
    NOT_MACRO: Final = "_not_macro"
    APPLIER: Final = "_applier"
    MACRO_INTO: Final = "_macro_into"
    CALLEE: Final = "_callee"  # issue 12: applier + the macro test (None for a macro)
    CALLEE_GLOBAL: Final = "_callee_g"  # the same for a global head read with ``D.get``
    CALLEE_ONCE: Final = "_callee_once"  # the whole callee choice at a global head's site that runs once
    MAKE_RECUR: Final = "_make_recur"
    RECUR_OF: Final = "_recur_of"
    RECUR_VALUE: Final = "_recur_value"
    STALE: Final = "_stale"
    STALE_HERE: Final = "_stale_here"
    WATCH_EPOCH: Final = "_watch_epoch"  # issue 12: a built module registers its bodies (``stale_bodies``)
    BINDS_BUILTINS: Final = "_binds_builtins"  # a built module's unit that binds a core builtin name
    SUBUNITS: Final = "_subunits"
    SUBUNITS_VALUE: Final = "_subunits_value"
    GET: Final = "_get"
    IS: Final = "_is"
    SPELL_EQ: Final = "_spell_eq"
    # failures and their conversion
    THROW: Final = "_throw"
    THROW_NOW: Final = "_throw_now"
    FAIL: Final = "_fail"
    FAIL_NOW: Final = "_fail_now"
    HOST_FAIL_NOW: Final = "_host_fail_now"
    ARITY_TEXT: Final = "_arity_text"
    CONV: Final = "_conv"
    SEQ_FAIL: Final = "_seq_fail"
    FN_FAIL: Final = "_fn_fail"  # modules built before fn_failed
    FN_FAILED: Final = "_fn_failed"
    PRIV_FAIL: Final = "_priv_fail"
    CAUGHT: Final = "_caught"
    REENTER: Final = "_reenter"
    DROP: Final = "_drop"
    # literals and forms
    VEC: Final = "_vec"
    MAP_PAIRS: Final = "_map_pairs"
    FOR_ITEMS: Final = "_for_items"
    REOPEN: Final = "_reopen"
    # issue 13: published parameters (spell_runtime.published) and loop vectors kept as lists
    APPLY_PUB: Final = "_apply_pub"
    MACRO_CALL_PUB: Final = "_macro_call_pub"  # modules built before _macro_pub
    MACRO_PUB: Final = "_macro_pub"
    TO_LIST: Final = "_to_list"
    REDUCE_ITEMS: Final = "_reduce_items"
    ASSOC_PAIRS: Final = "_assoc_pairs"
    ASSOC_KEYWORDS: Final = "_assoc_keywords"
    VEC_LONGS: Final = "_vec_longs"
    PIPE_ITEMS: Final = "_pipe_items"
    KV_PAIRS: Final = "_kv_pairs"
    GROUPED: Final = "_grouped"
    # issue 13.5: a static reference's dynamic evaluation after a run-time binding (spellc.emit.late);
    # modules built before LATE_HERE/LATE_PUB_HERE (issue 12) call these
    LATE: Final = "_late"
    LATE_PUB: Final = "_late_pub"
    # issue 12: the rare paths of fn bodies and scope handlers, reading the caller's frame
    # (spell_runtime.frame_paths); RECUR_VALUE, FN_FAILED, SEQ_FAIL and PRIV_FAIL are what they replace
    RECUR_HERE: Final = "_recur_here"
    FN_FAILED_HERE: Final = "_fn_failed_here"
    CONV_HERE: Final = "_conv_here"
    SEQ_FAILED_HERE: Final = "_seq_failed_here"
    PRIV_FAILED_HERE: Final = "_priv_failed_here"
    RESTORE_ALL: Final = "_restore_all"
    # issue 12: the rare macro branches read ``D`` (and published parameters) from the frame
    MACRO_HERE: Final = "_macro_here"
    MACRO_PUB_HERE: Final = "_macro_pub_here"
    # issue 12: the late references' dynamic evaluations too (LATE and LATE_PUB are what they replace)
    LATE_HERE: Final = "_late_here"
    LATE_PUB_HERE: Final = "_late_pub_here"
    # issue 12: given the *name* of the scope's undo local, they make its list when it is still None
    # and store it in the caller's frame themselves (``frame_paths.write_locals``), where a site wrote
    # ``_u := _u or []``; the published ones also write the parameters' new values into the caller's
    # locals, where a site reloaded them from MACRO_PUB_HERE's or LATE_PUB_HERE's answer
    MACRO_NAMED: Final = "_macro_named"
    LATE_NAMED: Final = "_late_named"
    MACRO_PUB_NAMED: Final = "_macro_pub_named"
    LATE_PUB_NAMED: Final = "_late_pub_named"

    @staticmethod
    def op(name: str) -> str:
        """The library function behind native operator ``name`` (the slow path of its inline code)."""
        full = "_op_" + name
        assert full in _OPS, full
        return full


_OPS: Final = frozenset({"_op_add", "_op_sub", "_op_mul", "_op_lt", "_op_gt", "_op_le", "_op_ge", "_op_inc",
                         "_op_dec", "_op_neg", "_op_zero", "_op_pos", "_op_negp", "_op_conj", "_op_get",
                         "_op_count", "_op_nth", "_op_first", "_op_assoc"})


class L:
    """Parameter and local names with a fixed meaning (see the module docstring)."""

    ENV: Final = "D"
    HEAD: Final = "_H"
    UNIT_UNDO: Final = "_U"
    TABLE: Final = "_T"
    EXC: Final = "_e"  # what a unit's handler bound in modules built before it called ``_conv_here``
    INDEX: Final = "_ci"  # a fn body's own running element (numbered ``_ciN`` in nested sequences)


_NAMESPACE: dict[str, Any] | None = None


def compiled_namespace(library: Optional[tuple[str, ...]] = None) -> dict[str, Any]:
    """The globals of every compiled module: ``H``'s names bound to the runtime's objects.

    Loading it loads the builtin library, since compiled code refers to builtins directly: the whole
    of it, or, with ``library``, the modules that register the builtins a built module's code refers
    to (``spell_runtime.library`` says when the rest loads). Every call loads what it is asked for:
    a second built module may need modules the first did not.
    """
    global _NAMESPACE
    if _NAMESPACE is not None:
        load_library(library)
        return dict(_NAMESPACE)
    from . import frame_paths, inline, published
    from . import support as s
    from .core import colls, longvecs, seqs
    from .core import numbers as num
    from .core.reducing import kv_pairs
    from .data.equality import spell_eq
    from .data.fn import RecurMarker, SpellFn
    from .data.hashmap import NO_ENTRY, SpellMap
    from .data.lookup import get
    from .data.vector import PVector, vec
    from .destructure import destructure
    from .epoch import EPOCH, MOVED
    from .errors import SpellError
    from .keyword_assoc import assoc_keywords
    from .stale_bodies import watch
    from .units import BindsBuiltins, DefFn, DefValue

    load_library(library)
    ns: dict[str, Any] = {
        H.MISS: s.MISS, H.NOTHING: s.NOTHING, H.NO_ENTRY: NO_ENTRY, H.SPELL_FN: SpellFn, H.SPELL_MAP: SpellMap,
        H.SPELL_ERROR: SpellError, H.MAYBE_RECUR: frozenset({SpellMap, RecurMarker}), H.PVECTOR: PVector, H.EPOCH: EPOCH,
        H.MOVED: MOVED, H.WATCH_EPOCH: watch,
        H.MISS_LOOKUP: s.miss, H.GLOBAL: s.lookup, H.NS_PATH: s.ns_path, H.NS_STATIC: s.ns_static, H.REC: s.rec, H.DEFINE: s.define,
        H.DEF_VALUE: DefValue, H.DEF_FN: DefFn, H.BINDS_BUILTINS: BindsBuiltins,
        H.UNWIND: s.unwind, H.RESTORE: s.restore, H.PUBLISH: s.publish, H.DESTRUCTURE: destructure, H.LOOP_REBIND: s.loop_rebind,
        H.PRIVATE_REBIND: s.private_rebind,
        H.APPLY: s.apply_fn, H.IS_MACRO: s.check_macro, H.MACRO_CALL: s.macro_call, H.NOT_MACRO: s.not_macro,
        H.APPLIER: s.applier, H.MACRO_INTO: s.macro_into, H.CALLEE: s.callee,
        H.CALLEE_GLOBAL: s.callee_global, H.CALLEE_ONCE: s.callee_once, H.MAKE_RECUR: s.make_recur,
        H.RECUR_OF: s.recur_of,        H.RECUR_VALUE: s.recur_value, H.STALE: s.stale, H.STALE_HERE: s.stale_here, H.SUBUNITS: s.subunits, H.SUBUNITS_VALUE: s.subunits_value, H.GET: get, H.IS: operator.is_,
        H.SPELL_EQ: spell_eq,
        H.THROW: s.throw, H.THROW_NOW: s.throw_now, H.FAIL: s.fail, H.FAIL_NOW: s.fail_now,
        H.HOST_FAIL_NOW: s.host_fail_now, H.ARITY_TEXT: s.arity_text, H.CONV: s.conv, H.SEQ_FAIL: s.seq_fail,
        H.FN_FAIL: s.fn_fail, H.FN_FAILED: s.fn_failed, H.PRIV_FAIL: s.priv_fail, H.CAUGHT: s.caught_value, H.REENTER: s.reenter_failure_env,
        H.DROP: s.drop_binding,
        H.VEC: vec, H.MAP_PAIRS: SpellMap.from_pairs, H.FOR_ITEMS: s.for_items, H.REOPEN: s.reopen,
        H.APPLY_PUB: published.apply_published, H.MACRO_CALL_PUB: published.macro_call_published,
        H.MACRO_PUB: published.macro_call_published_into,
        H.TO_LIST: published.to_list, H.REDUCE_ITEMS: inline.reduce_items, H.ASSOC_PAIRS: inline.assoc_pairs,
        H.ASSOC_KEYWORDS: assoc_keywords,
        H.VEC_LONGS: longvecs.vec_of_longs, H.PIPE_ITEMS: seqs.seq_items, H.KV_PAIRS: kv_pairs, H.GROUPED: colls.grouped,
        H.LATE: s.late, H.LATE_PUB: published.late_published_into,
        H.RECUR_HERE: frame_paths.recur_here, H.FN_FAILED_HERE: frame_paths.fn_failed_here,
        H.CONV_HERE: frame_paths.conv_here, H.SEQ_FAILED_HERE: frame_paths.seq_failed_here,
        H.PRIV_FAILED_HERE: frame_paths.priv_failed_here, H.RESTORE_ALL: s.restore_all,
        H.MACRO_HERE: frame_paths.macro_here, H.MACRO_PUB_HERE: frame_paths.macro_pub_here,
        H.LATE_HERE: frame_paths.late_here, H.LATE_PUB_HERE: frame_paths.late_pub_here,
        H.MACRO_NAMED: frame_paths.macro_named, H.LATE_NAMED: frame_paths.late_named,
        H.MACRO_PUB_NAMED: frame_paths.macro_pub_named, H.LATE_PUB_NAMED: frame_paths.late_pub_named,
        "_op_add": num.add, "_op_sub": num.sub, "_op_mul": num.mul, "_op_lt": num.lt, "_op_gt": num.gt,
        "_op_le": num.le, "_op_ge": num.ge, "_op_inc": num.inc, "_op_dec": num.dec, "_op_neg": num.neg,
        "_op_zero": num.is_zero, "_op_pos": num.is_pos, "_op_negp": num.is_neg,
        "_op_conj": seqs.conj1, "_op_get": get, "_op_count": seqs.count, "_op_nth": seqs.nth,
        "_op_first": seqs.first, "_op_assoc": colls.assoc1,
    }
    assert set(ns) == helper_names(), "compiled_namespace and H disagree"
    _NAMESPACE = ns
    return dict(ns)


LEGACY: Final = frozenset({"APPLY", "FN_FAIL", "MACRO_CALL", "MACRO_CALL_PUB", "MACRO_INTO", "STALE",
                           "RECUR_VALUE", "FN_FAILED", "SEQ_FAIL", "PRIV_FAIL", "LATE", "LATE_PUB", "CONV",
                           "MACRO_PUB_HERE", "LATE_PUB_HERE", "MACRO_PUB", "STALE_HERE"})
"""``H`` members the emitter no longer writes but modules built by earlier versions of it call
(``spellc build`` output imports this namespace): kept so that those modules still run.
``STALE_HERE`` is also what the stubs of stale bodies call (``stale_bodies``)."""


def helper_names() -> frozenset[str]:
    """Every helper name ``H`` declares (what the ABI test checks generated code against)."""
    return frozenset(v for k, v in vars(H).items() if k.isupper()) | _OPS


__all__ = ["H", "L", "LEGACY", "compiled_namespace", "helper_names"]
