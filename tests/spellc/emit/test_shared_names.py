"""Loaded names are shared between the places that read them at one position (``pyast.name``):
the shared tree must compile and unparse exactly as a tree of separate nodes would, a new emitter
starts with no shared names, and ``spellc build`` counts every place a constant is read when it
numbers constants (most-used first) while renaming each shared node once."""

from __future__ import annotations

import ast
import copy
from types import CodeType

import pytest

from spellc.analyze.analyzer import analyze_form
from spellc.compiler import base_namespace, build_module
from spellc.emit import pyast as P
from spellc.emit.emitter import Emitter
from spellc.reader import read_all

PROGRAMS = [
    "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))",
    "(defn g [x] (def y x) (h (f y) (if (k y) 1 (f y))))",
    "(let [a (f) b (g a)] (loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (h a b i))) acc)))",
]


def _code_facts(code: CodeType) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    stack = [code]
    while stack:
        c = stack.pop()
        out.append((c.co_name, c.co_code, tuple(c.co_positions()), c.co_names, c.co_varnames))
        stack.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return out


def _names(mod: ast.Module) -> tuple[int, int]:
    places = [n for n in ast.walk(mod) if type(n) is ast.Name and type(n.ctx) is ast.Load]
    return len(places), len({id(n) for n in places})


@pytest.mark.parametrize("src", PROGRAMS)
def test_shared_names_compile_and_unparse_like_separate_nodes(src: str) -> None:
    base_namespace()
    for form in read_all(src):
        node, _ = analyze_form(form)
        mod = Emitter().emit_unit(node)
        places, distinct = _names(mod)
        assert distinct < places  # the program does share names
        separate = copy.deepcopy(mod)  # deepcopy keeps sharing: rebuild every Name on its own
        for parent in ast.walk(separate):
            for field, value in ast.iter_fields(parent):
                if type(value) is ast.Name:
                    setattr(parent, field, copy.copy(value))
                elif isinstance(value, list):
                    value[:] = [copy.copy(v) if type(v) is ast.Name else v for v in value]
        assert _names(separate)[0] == _names(separate)[1] == places
        assert ast.unparse(mod) == ast.unparse(separate)
        assert _code_facts(compile(mod, "<m>", "exec")) == _code_facts(compile(separate, "<m>", "exec"))


def test_a_new_emitter_shares_nothing_with_the_last() -> None:
    base_namespace()
    form = read_all("(f x)")[0]
    first = Emitter().emit_unit(analyze_form(form)[0])
    second = Emitter().emit_unit(analyze_form(form)[0])
    ids = {id(n) for n in ast.walk(first) if type(n) is ast.Name}
    assert not ids & {id(n) for n in ast.walk(second) if type(n) is ast.Name}
    with P.at((7, 1, 7, 4)):
        assert P.name("D") is P.name("D")
        P.reset_names()
        assert P.name("D") is not P.name("_x") and P.name("D").lineno == 7


def test_build_renames_shared_constant_names_once_and_numbers_by_places() -> None:
    base_namespace()
    src = "(defn g [x] (str x) (str x x) (count (str x)))\n(g 12)"
    text = build_module(read_all(src), "<shared>")
    tree = ast.parse(text)
    reads = [n.id for n in ast.walk(tree) if type(n) is ast.Name and n.id.startswith("_k")]
    assert reads and all(r[2:].isdigit() for r in reads)
    namespace: dict[str, object] = {"__name__": "built_shared"}
    exec(compile(text, "<shared>", "exec"), namespace)  # every renamed constant is defined
    assert namespace["value"] == 2
    counts = {name: reads.count(name) for name in set(reads)}
    ordered = sorted(counts, key=lambda name: int(name[2:]))
    # entries are numbered most-used first: counts never rise along the numbering of the used ones
    assert [counts[n] for n in ordered[:3]] == sorted((counts[n] for n in ordered[:3]), reverse=True)


def test_a_name_is_shared_while_its_position_stays_pushed() -> None:
    """``pyast.name`` remembers the last node per name and shares it only at the very position tuple
    that is on the stack (an identity test, no tuple key hashed per read)."""
    P.reset_names()
    pos = (3, 2, 3, 9)
    with P.at(pos):
        first = P.name("_t1")
        assert P.name("_t1") is first and P.callname("f", first).func is not first
        assert P.callname("_t1").func is first  # callname's head shares the same table
        with P.at((4, 0, 4, 5)):
            inner = P.name("_t1")
        assert inner is not first and inner.lineno == 4
        again = P.name("_t1")  # the inner read replaced the remembered node: a new one, placed here
        assert again is not first and again.lineno == 3 and P.name("_t1") is again
    with P.at(tuple([3, 2, 3, 9])):  # an equal position, another tuple: not the same pushed place
        assert P.name("_t1") is not again
