"""The names of the deterministic, effect-free core functions (``purity.PURE_FUNCTIONS``), as text.

A module of their own, with nothing else in it: the compiler asks whether a builtin is pure when
it fuses a pipeline (``spellc.emit.pipelines``), the first time during a cold compile, and loading
``purity`` for it (its replay machinery and symbol tables) cost ~1.4 M machine instructions of
compiling ``compile-300.spl``, this module a small part of that (issue 12). A core function's symbol
has no namespace, so ``sym in PURE_FUNCTIONS`` is ``sym.ns is None and sym.name in PURE_NAMES``.
"""

from __future__ import annotations

from typing import Final

PURE_NAMES: Final = frozenset("""
* *' + +' - -' / < <= = > >= abs any? assoc assoc-in bigdec bigint boolean boolean? butlast coll? compare
concat conj cons contains? count dec dec' denominator disj dissoc distinct distinct? double drop drop-last
empty? even? false? ffirst find first flatten float frequencies get get-in identity inc inc' int int?
integer? interleave interpose into keys keyword keyword? last list list* list? long map? max min mod name
namespace neg-int? neg? next nil? not not-empty not= nth number? numerator odd? partition partition-all
peek pop pos-int? pos? pr-str quot ratio? rational? rem rest reverse second select-keys seq seq?
sequential? set set? some? sort str string? subs subvec symbol symbol? take take-last take-nth true? vals
vec vector vector? zero? zipmap key val split-at
""".split())
