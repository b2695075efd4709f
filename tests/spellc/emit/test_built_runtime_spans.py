"""Forms a built module compiles while it runs keep their source positions (issue 12.1,
``spell_runtime.built_spans``): for each kind of run-time-compiled form, ``python built.py`` reports
the error text, position and call path that ``spellc run`` of the source reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from built_vs_source import assert_built_fails_as_the_source
from spell_runtime import built_spans
from spell_runtime.callpath import BUILT_TABLES
from spell_runtime.data import PList, SpellMap, SpellSet, Symbol, plist, vec
from spell_runtime.data.positions import child_spans_of, set_span, span_of

import spellc
from spellc.compiler import build_module

# (what is compiled at run time, the program, the first line both must print)
PROGRAMS = [
    ("a macro's template",
     "(defmacro m [] '(/ 1 0)) (m)\n",
     "prog.spl:1:17: Function call failed: /: Divide by zero"),
    ("a symbol in a template, over two lines",
     "(defmacro m [] '(foo\n  1)) (m)\n",
     "prog.spl:1:18: Unbound symbol: foo"),
    ("a let and a vector in a template",
     "(defmacro m [] '(let [a\n  (inc nil)] a)) (m)\n",
     "prog.spl:2:3: Function call failed: inc: Cannot perform arithmetic on nil"),
    ("a map template",
     "(defmacro m [] '{:a (inc 1)\n   :b (/ 1 0)})\n(m)\n",
     "prog.spl:2:7: Function call failed: /: Divide by zero"),
    ("a template redefining a builtin: the caller's body recompiled stale, late binding",
     "(defmacro m [] '(def - (fn [a b] (/ a 0))))\n(defn f [n] (m)\n  (- n 5))\n(f 10)\n",
     "prog.spl:1:34: Function call failed: /: Divide by zero"),
    ("a macro's argument (a call form of the position table), head a macro only at run time",
     "(defmacro m [x] x)\n(defn f []\n  (m (/ 1\n 0)))\n(f)\n",
     "prog.spl:3:6: Function call failed: /: Divide by zero"),
    ("a fn a template defines, applied by a builtin",
     "(defmacro m [] '(defn g [x]\n   (/ x 0)))\n(m)\n(map g [1])\n",
     "prog.spl:4:1: Function call failed: map: Function call failed: /: Divide by zero"),
    ("a defn applied by a builtin (named by its first body form)",
     "(defn f [x]\n  (/ x 0))\n(map f [1])\n",
     "prog.spl:3:1: Function call failed: map: Function call failed: /: Divide by zero"),
    ("a written fn applied by a builtin (named by its form's place, not its first body form's)",
     "(defn f [x]\n  (/ x 0))\n(reduce (fn [a b]\n    (f b)) 0 [1])\n",
     "prog.spl:3:1: Function call failed: reduce: Function call failed: /: Divide by zero"),
    ("a fn made by eval of quoted data, applied by a builtin",
     "(def fd (eval '(fn [x]\n  (/ x 0))))\n(map fd [1])\n",
     "prog.spl:3:1: Function call failed: map: Function call failed: /: Divide by zero"),
    ("a fn built as data (compiled on its first call)",
     "(def fd '{:spell/fn true :params [x] :body ((inc x)\n  (/ x 0))})\n(fd 1)\n",
     "prog.spl:2:3: Function call failed: /: Divide by zero"),
    ("a fn a template makes, applied by a builtin",
     "(defmacro m [] '(fn [x]\n  (/ x 0)))\n(map (m) [1])\n",
     "prog.spl:3:1: Function call failed: map: Function call failed: /: Divide by zero"),
    ("a loop template",
     "(defmacro m [] '(loop [i 0]\n  (if (< i 3) (recur (inc i)) (/ i 0))))\n(m)\n",
     "prog.spl:2:31: Function call failed: /: Divide by zero"),
    ("a reopen extra (source taken unevaluated) in a macro's expansion",
     "(defmacro m [] (reopen '(quine c (eval (do 1)))\n   (/ 1 0)))\n(m)\n",
     "prog.spl:2:4: Function call failed: /: Divide by zero"),
    ("a template equal to a call form elsewhere (kept a form of its own)",
     "(defn g [] (/ 1 0))\n(defmacro m [] '(/ 1 0))\n(m)\n",
     "prog.spl:2:17: Function call failed: /: Divide by zero"),
]


@pytest.mark.parametrize("what,program,first", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_the_built_module_reports_what_the_source_run_reports(tmp_path: Path, what: str, program: str, first: str) -> None:
    assert_built_fails_as_the_source(tmp_path, program, first)


# --------------------------------------------------------------------------- the pieces


def _spanned(form: Any, line: int) -> Any:
    set_span(form, (line, 2, line + 1, 7), tuple((line, i, line, i + 1) for i in range(len(list(
        x for kv in form.items() for x in kv) if isinstance(form, SpellMap) else form))))
    return form


def test_packed_form_spans_round_trip_through_nested_collections() -> None:
    inner = _spanned(plist([Symbol("inc"), 1]), 3)
    m = _spanned(SpellMap.from_pairs([(Symbol("k"), inner)]), 2)
    s = _spanned(SpellSet.from_items([Symbol("x")]), 9)
    v = vec([Symbol("y"), s])  # no spans of its own: written as absent, its set's still are
    top = _spanned(plist([Symbol("do"), m, v, plist([])]), 1)
    packed = built_spans.pack_form_spans([top])

    def bare(form: Any) -> Any:  # the same structure, rebuilt without spans (as built_constants does)
        if type(form) is PList:
            return plist([bare(x) for x in form])
        if isinstance(form, SpellMap):
            return SpellMap.from_pairs([(bare(k), bare(x)) for k, x in form.items()])
        if isinstance(form, SpellSet):
            return SpellSet.from_items([bare(x) for x in form])
        if type(form) is type(v):
            return vec([bare(x) for x in form])
        return form

    copy = bare(top)
    assert span_of(copy) is None
    built_spans.apply_form_spans((copy,), packed)
    pairs = [(top, copy), (top[1], copy[1]), (inner, list(copy[1].values())[0]), (top[2], copy[2]),
             (s, copy[2][1]), (top[3], copy[3])]
    for original, rebuilt in pairs:
        assert span_of(rebuilt) == span_of(original)
        assert child_spans_of(rebuilt) == child_spans_of(original)
    assert span_of(copy[2]) is None and span_of(copy[2][1]) == (9, 2, 10, 7)


def _table_of(program: str) -> tuple[dict[str, Any], str]:
    """The namespace of a built module run up to its position table (its program not run)."""
    source = build_module(spellc.read_all(program), "prog.spl")
    namespace: dict[str, Any] = {"__name__": "built"}
    exec(compile(source[:source.index("\ndef run():")], "built.py", "exec"), namespace)
    return namespace, source


def test_spans_are_given_back_on_first_need_not_at_import() -> None:
    program = "(defn g [x]\n  (inc (/ 1 0)))\n(defmacro m [] '(/ 1\n 0))"
    read = spellc.read_all(program)
    built_spans.restore_pending(BUILT_TABLES)
    namespace, _ = _table_of(program)
    table = namespace["_T"]
    assert [pending() for pending in BUILT_TABLES] == [table]
    calls = {str(form): form for *_, form in table.spans if type(form) is PList}  # unpacking restores
    assert BUILT_TABLES == []
    # every call form has the span it was read with: (inc (/ 1 0)) and (/ 1 0) in g's body
    body = read[0][3]
    assert span_of(body) is not None and span_of(calls["(inc (/ 1 0))"]) == span_of(body)
    assert span_of(calls["(/ 1 0)"]) == span_of(body[1])
    # the quoted template, equal to that call form: its own object, with the spans it was read with
    template = read[1][3][1]
    (quoted,) = table.quoted[0]
    assert quoted == template == calls["(/ 1 0)"] and quoted is not calls["(/ 1 0)"]
    assert span_of(template) is not None and span_of(quoted) == span_of(template)
    assert child_spans_of(quoted) == child_spans_of(template)


def test_written_fn_forms_get_their_spans_at_import() -> None:
    program = "(defn f [x] (inc x))\n(def g\n  (fn [y]\n    (f y)))"
    read = spellc.read_all(program)
    namespace, _ = _table_of(program)
    fns = [v for k, v in namespace.items() if k.startswith("_k") and type(v) is PList and v.first == Symbol("fn")]
    written = read[1][2]
    assert span_of(written) is not None
    # the defn's fn (built by its macro, spanless in the source run too) has none; the written one its own
    assert sorted((span_of(f) for f in fns), key=str) == [span_of(written), None]


def test_a_table_is_held_weakly_until_its_spans_are_needed() -> None:
    import gc

    built_spans.restore_pending(BUILT_TABLES)
    namespace, _ = _table_of("(defn f [x] (inc x))")
    assert len(BUILT_TABLES) == 1
    del namespace
    gc.collect()
    assert BUILT_TABLES[0]() is None  # the module is gone: nothing of it is kept for this
    built_spans.restore_pending(BUILT_TABLES)
    assert BUILT_TABLES == []


def test_a_program_without_quoted_forms_writes_no_spans() -> None:
    _, plain = _table_of("(defn f [x] (inc x)) (f 1)")
    _, quoting = _table_of("(defmacro m [] '(inc 1)) (m)")
    assert "quoted_spans" not in plain
    assert "quoted_spans(globals()" in quoting
    # self-evaluating data quoted holds nothing that compiles to a position: no spans either
    _, data = _table_of("(def xs '[1 2 {:a 3}]) xs")
    assert "quoted_spans" not in data


def test_an_exported_fn_recompiled_stale_in_a_host_process_keeps_its_positions() -> None:
    """A host that also binds a builtin name moves the epoch, so a built module's fns recompile from
    their forms on their first call (``support.stale_here``): the error is placed as in the source."""
    from spellc.interop_build import with_exports

    program = "(defn f [x]\n  (inc\n    (/ x 0)))\n(defn g [y] (f y))"
    forms = spellc.read_all(program)
    source = with_exports(build_module(forms, "prog.spl"), forms)
    spellc.eval_string("(let [count 1] count)")  # binding a builtin name moves this process's epoch
    namespace: dict[str, Any] = {"__name__": "built"}
    exec(compile(source, "built.py", "exec"), namespace)
    with pytest.raises(spellc.SpellError) as caught:
        namespace["g"](1)
    divide = spellc.read_all(program)[0][3][1]
    assert caught.value.message == "Function call failed: /: Divide by zero"
    assert span_of(divide) is not None and caught.value.position == span_of(divide)


def test_equal_forms_at_two_places_are_two_objects_each_given_its_span() -> None:
    """Equal call forms are kept apart (``ConstantEncoder``'s ``apart``): one object named at two places
    got no span back, and code recompiled from it was placed at the enclosing form or at 1:1."""
    namespace, _ = _table_of("(defn f [x]\n  (if x (inc nil)\n    (inc nil)))")
    table = namespace["_T"]
    places = [(key[0], key[2]) for (*_, form), key in zip(table.spans, table.spell) if str(form) == "(inc nil)"]
    forms = {id(form): form for *_, form in table.spans if str(form) == "(inc nil)"}
    assert sorted(places) == [(2, 8), (3, 4)] and len(forms) == 2  # equal forms: two objects, two places
    built_spans.restore_pending(BUILT_TABLES)
    assert sorted(span_of(form)[:2] for form in forms.values()) == [(2, 8), (3, 4)]  # type: ignore[index]
