"""The compiler driver: form → IR → Python ``ast`` → code object → function, with caches.

Units. A top-level form compiles to a *unit*: a Python function ``unit(D, U)``
that evaluates the form in binding table ``D`` and appends to ``U`` the undo
entries of the definitions that escape it (see ``spell_runtime.context``). A
``def`` of a constant or of a ``fn`` — most of a program's top-level forms — gets
no function: its unit is a ``spell_runtime.units`` object that does the same
(``compiler.direct``).

Caching. Units are cached by the form's text, its place and the binding epoch
(the keys and every cache are described in ``spellc.state``); a re-evaluated
program therefore compiles only forms whose text is new. Bodies of ``fn`` forms
are compiled with their unit; functions that exist only as data (read from
text, built by a program) are compiled on their first call and cached by their
text too. Python's own
bytecode caches are not involved (``PYTHONDONTWRITEBYTECODE`` is set on our
machines), so cold compile speed stands on its own.
"""

from __future__ import annotations

import ast
import functools
import linecache
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any, Optional

from spell_runtime import optimise, support
from spell_runtime.built_parts import PART_LINE_STEP
from spell_runtime.built_spans import pack_fn_spans
from spell_runtime.context import CTX_KEY
from spell_runtime.data import (
    SpellFn,
    SpellMap,
    plist,
    vec,
)
from spell_runtime.data.atoms import K_EXPANDER, Symbol
from spell_runtime.data.fn import as_spell_fn, is_spell_fn
from spell_runtime.data.positions import span_of
from spell_runtime.destructure import destructure
from spell_runtime.errors import HostError, SpellError
from spell_runtime.gcpolicy import evaluation_gc
from spell_runtime.limits import is_limit_error, macro_level
from spell_runtime.optimise import set_enabled, variant
from spell_runtime.packnum import pack_numbers
from spell_runtime.stale_bodies import watch

from .. import state
from ..analyze.analyzer import SourceIndex, analyze_form
from ..analyze.ir import Def, Fn
from ..emit.emitter import Emitter
from ..emit.source import python_text
from ..emit.wrap import wrap_long_lines
from ..state import EPOCH, SUB_BY_FORM_LIMIT, Unit, UnitKey, base_namespace
from . import templates
from .direct import direct_unit, is_direct
from .parts import PART_BYTES, group_bodies, loader_source, part_header, part_name, part_text
from .places import place_key, places_of
from .written_spans import QUOTED_IMPORT, first_body_forms, fn_forms, quoted_forms, quoted_spans_source

COMPILER_VERSION = "0.1.0"

class optimisations:
    """``with optimisations(False): ...`` compiles (and runs) with every optimisation off
    (``spell_runtime.optimise``); the previous setting comes back on exit. Process-wide, like
    ``SPELLC_NO_OPT``: meant for tests and tools, not for concurrent evaluations."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.previous = True

    def __enter__(self) -> None:
        self.previous = set_enabled(self.on)

    def __exit__(self, *exc: object) -> None:
        set_enabled(self.previous)


# The entry ``_register_source`` last put in ``linecache`` and the text it holds: every top-level form
# of a program registers the same text, and splitting it into lines once per form cost ~2 ms of a
# cold compile of compile-300 (issue 12). The entry is reused only while ``linecache`` still holds
# that very tuple (``linecache.clearcache``/``checkcache`` or another writer replace it).
_registered: list[Any] = [None, None]


def _register_source(filename: str, text: Optional[str]) -> None:
    if text is not None:
        entry = _registered[0]
        if entry is not None and _registered[1] is text and linecache.cache.get(filename) is entry:
            return
        entry = (len(text), None, text.splitlines(keepends=True), filename)
        linecache.cache[filename] = entry
        _registered[0], _registered[1] = entry, text


def _exec_module(mod: ast.Module, emitter: Emitter, filename: str, via_source: bool = False) -> dict[str, Any]:
    """Compile and run a generated module; ``via_source`` goes through ``ast.unparse`` first (the
    path ``spellc build`` takes), which the dual-path tests compare with the direct one."""
    table = emitter.table
    if via_source:
        source = python_text(mod)
        entries = call_spans(mod, source, table, emitter.places)
        table = support.SpanTable([e[:5] for e in entries], (), filename, [e[5] for e in entries])
        code = compile(source, filename, "exec")
    else:
        code = compile(mod, filename, "exec")
    ns = dict(base_namespace())
    ns.update(emitter.consts)
    ns["_T"] = table
    exec(code, ns)
    if emitter.guarded:  # bodies that go stale when the binding epoch moves (spell_runtime.stale_bodies)
        for epoch in {at for _, _, at in emitter.guarded}:
            watch([x for name, const, at in emitter.guarded if at == epoch for x in (ns[name], ns[const.id])], epoch)
    return ns


def call_spans(mod: ast.Module, source: str, table: dict[Any, Any],
               places: Collection[Any] = ()) -> list[tuple[int, int, int, int, Any, Any]]:
    """One (line, col, end line, end col, form, Spell position) span per call form, for code compiled from ``source``,
    the ``ast.unparse`` text of ``mod`` (the path ``spellc build`` takes; see ``support.SpanTable``); and one,
    with form None, per place that can fail outside a call form (``places``: ``Emitter.place_pos``).

    The unparsed source parses back to the same tree but for a few constants (``-1`` parses back as
    a unary minus), so walking both trees in step, child by child, pairs each generated node with
    its place in the text; a node that reads back otherwise is skipped (a constant: no call in it),
    where a ``ast.walk`` of each tree lost its pairing and every span after it. A call form's span
    covers every node stamped with its (unique) call position in one module-level function: a
    closed self-recursive fn's second body (``Emitter.second_body``) stamps its calls with the first
    body's positions, and one span over both bodies held the code between them, where an inner
    call's wide span then claimed another call's failure.
    """
    spans: dict[tuple[Any, int], list[int]] = {}
    parsed = ast.parse(source)
    for top, (first_a, first_b) in enumerate(zip(mod.body, parsed.body)):
        pairs: list[tuple[ast.AST, ast.AST]] = [(first_a, first_b)]
        while pairs:
            a, b = pairs.pop()
            if type(a) is not type(b):
                continue
            pairs.extend(zip(ast.iter_child_nodes(a), ast.iter_child_nodes(b)))
            if isinstance(a, (ast.expr, ast.stmt)) and isinstance(b, (ast.expr, ast.stmt)):
                key = (a.lineno, a.end_lineno, a.col_offset, a.end_col_offset)
                if key in table or key in places:
                    el, ec = b.end_lineno or b.lineno, b.end_col_offset or 0
                    span = spans.get((key, top))
                    if span is None:
                        spans[(key, top)] = [b.lineno, b.col_offset, el, ec]
                    else:
                        if (b.lineno, b.col_offset) < (span[0], span[1]):
                            span[0], span[1] = b.lineno, b.col_offset
                        if (el, ec) > (span[2], span[3]):
                            span[2], span[3] = el, ec
    return [(sl, sc, el, ec, table.get(key), key) for (key, _), (sl, sc, el, ec) in spans.items()]


def _source_index(text: str) -> SourceIndex:
    """The line index of ``text``, kept for the next form of the same text (``state.source_index``)."""
    index: Optional[SourceIndex] = state.source_index
    if index is None or index.text != text:
        index = state.source_index = SourceIndex(text)
    return index


def compile_unit(form: Any, source_name: str = "<spell>", source_text: Optional[str] = None,
                 via_source: bool = False, incremental: bool = False) -> Unit:
    """The cached unit function for a top-level form.

    ``incremental`` compiles the leading elements of long body sequences as separately cached
    sub-units (for programs re-evaluated as they grow: the turn loop).
    """
    from spell_runtime.printer import pr_str

    base_namespace()
    spine = templates.spine_of(form) if incremental and templates.enabled() else None
    if spine is not None:
        shape = templates.shape_key(spine, source_name + (" (via source)" if via_source else ""), EPOCH[0])
        known, template = templates.lookup(shape)
        if template is not None:
            _register_source(source_name, source_text)
            return templates.instantiate(template, spine)
        if known:
            spine = None  # a shape that does not qualify: compile as usual
    index = _source_index(source_text) if source_text is not None else None
    source = index if incremental else None
    # The key is the form's own source text when it has one (cutting it out is much cheaper than
    # printing the form), else its printed text.
    source_cut = index.text_of(span_of(form)) if index is not None else None
    key_text = source_cut or pr_str(form)
    # Where the form's parts stand is part of the key: positions are compiled into the unit
    # (co_positions, the call-form table), so the same text standing at another place must not
    # reuse a unit whose errors would name the first place's line and column. Exact source text
    # and the form's span decide every sub-form's place; printed text does not (a macro expansion
    # has no span of its own around the caller's argument forms), so then every span is taken
    # (``places``). An incremental unit is only reused for the very form it was compiled from.
    place = span_of(form) if incremental else place_key(form, source_cut is not None)
    key = UnitKey(key_text, source_name + variant(), place, incremental, via_source, EPOCH[0])
    unit = state.unit_cache.get(key)
    if unit is not None and (not incremental or state.unit_forms.get(key) is form):
        return unit
    if via_source:
        source_name += " (via source)"
    with state.LOCK:
        node, _ = analyze_form(form, source=source, subunits=incremental)
        filename = source_name
        _register_source(filename, source_text)
        if spine is None:
            unit = _unit_of(node, filename, via_source)
        else:
            emitter = Emitter()
            emitter.text_places = via_source
            mod = emitter.emit_unit(node)
            ns = _exec_module(mod, emitter, filename, via_source)
            unit = ns["_unit"]
            if not via_source:
                templates.learn(templates.shape_key(spine, source_name, EPOCH[0]), spine, emitter.consts,
                                emitter.table, ns, bool(emitter.functions))
        key = key._replace(epoch=EPOCH[0])  # analysis may have moved the epoch
        state.unit_cache[key] = unit
        if incremental:
            state.unit_forms[key] = form
    return unit


def _unit_of(node: Any, filename: str, via_source: bool) -> Unit:
    """The unit of an analyzed top-level form: a direct def (``compiler.direct``), else its compiled
    unit function."""
    direct = direct_unit(node, _exec_module, filename, via_source)
    if direct is not None:
        return direct
    emitter = Emitter()
    emitter.text_places = via_source
    mod = emitter.emit_unit(node)
    return _exec_module(mod, emitter, filename, via_source)["_unit"]  # type: ignore[no-any-return]


def compile_subunit(form: Any, key: Optional[str]) -> Unit:
    """The cached unit of one leading element of a long body sequence (see ``ir.SubUnits``)."""
    hit = state.sub_by_form.get(id(form))
    stamp = EPOCH[0] if optimise.ENABLED[0] else -1 - EPOCH[0]  # the optimisation setting is part of it
    if hit is not None and hit[0] is form and hit[1] == stamp:
        return hit[2]
    unit = _compile_subunit_by_text(form, key)
    if len(state.sub_by_form) >= SUB_BY_FORM_LIMIT:
        state.sub_by_form.clear()
    state.sub_by_form[id(form)] = (form, stamp, unit)
    return unit


def _compile_subunit_by_text(form: Any, key: Optional[str]) -> Unit:
    from spell_runtime.printer import pr_str

    text = (key if key is not None else pr_str(form)) + variant()
    place = place_key(form, key is not None)  # positions are compiled in (``places``)
    unit = state.sub_cache.get((text, place, EPOCH[0]))
    if unit is None:
        base_namespace()
        with state.LOCK:
            node, _ = analyze_form(form, subunits=True)
            unit = _unit_of(node, "<spell>", False)
            state.sub_cache[(text, place, EPOCH[0])] = unit
    return unit


def python_source(form: Any) -> str:
    """The Python source the compiler generates for ``form`` (for ``spellc build`` and debugging)."""
    base_namespace()
    node, _ = analyze_form(form)
    emitter = Emitter()
    mod = emitter.emit_unit(node)
    return python_text(mod)


class BuiltProgram:
    """What ``build_program`` writes: the module's text and, for a large program, its parts
    (``spell_runtime.built_parts``): ``folder`` beside the module, holding ``parts`` (file name, text)."""

    __slots__ = ("module", "folder", "parts")

    def __init__(self, module: str, folder: Optional[str], parts: list[tuple[str, str]]) -> None:
        self.module = module
        self.folder = folder
        self.parts = parts


def build_module(forms: list[Any], source_name: str = "<spell>") -> str:
    """Python source of a module that evaluates ``forms`` like ``eval_string`` and imports only the runtime.

    Running it prints the value; importing it computes ``value``. One file, whatever its size
    (``build_program`` splits a large one).
    """
    return build_program(forms, source_name).module


def build_program(forms: list[Any], source_name: str = "<spell>", folder: Optional[str] = None,
                  part_bytes: int = PART_BYTES) -> BuiltProgram:
    """``build_module``'s module, its functions moved into parts in ``folder`` (a name, beside the
    module) when they are more than ``part_bytes`` of text (``compiler.parts``); whole without ``folder``."""
    from ..emit.constants import SCRIPT_GC, ConstantEncoder, constants_source, library_modules, runtime_imports

    base_namespace()
    support.set_recursion_limit()  # analysis and unparse recurse with the nesting (as evaluation does)
    emitter = Emitter()
    emitter.epoch_base = 0
    emitter.text_places = True
    units: list[ast.stmt] = []
    nodes: list[Any] = []
    for i, form in enumerate(forms):
        static = set(state.BOUND)
        node, _ = analyze_form(form)
        nodes.append(node)
        if is_direct(node):  # a def of a constant or a fn: no unit function (compiler.direct)
            assert type(node) is Def
            units.append(emitter.direct_unit(node, "_unit%d" % i))
        else:
            units.append(emitter.unit_function(node, "_unit%d" % i))
        bound = [sym for sym in state.BOUND if sym not in static]
        if bound:  # analysing the form moved the epoch here: running it must move it there
            units.append(emitter.binds_builtins("_unit%d" % i, sorted(bound, key=str)))
    quoted = quoted_forms(nodes)  # their spans are written (issue 12.1; spell_runtime.built_spans)
    firsts = first_body_forms(nodes, {id(form) for form in emitter.table.values()})
    fns = fn_forms(nodes) + firsts
    named = {id(value) for value in emitter.consts.values()}
    # fn forms and quoted forms whose spans are written, and call forms the position table names: built
    # once, by name (a quoted form inside a quine's form is no constant of the code: its spans' entry
    # named no constant, and the build failed with a KeyError)
    for form in [*fns, *quoted, *emitter.table.values()]:
        if id(form) not in named:
            named.add(id(form))
            emitter.consts["_k%d" % len(emitter.consts)] = form
    no_form = "_k%d" % len(emitter.consts)
    if emitter.places:  # the form of a place's entry in the position table (``Emitter.place_pos``)
        emitter.consts[no_form] = None
    mod = ast.Module(body=[*emitter.functions, *emitter.watch_statement(), *units], type_ignores=[])
    seen: set[int] = set()
    const_refs: list[ast.Name] = []
    uses: Counter[str] = Counter()
    for py_node in ast.walk(mod):  # the emitter shares Name nodes between places: count each place, rename once
        if type(py_node) is ast.Name and py_node.id in emitter.consts:
            uses[py_node.id] += 1
            if id(py_node) not in seen:
                seen.add(id(py_node))
                const_refs.append(py_node)
    if emitter.places:  # each form-less place's table entry names it: a low entry, one character in the table
        uses[no_form] = len(emitter.places) - len(emitter.place_symbols)
    encoder = ConstantEncoder()
    entries, entry_of_name = encoder.encode(emitter.consts, first=[name for name, _ in uses.most_common()],
                                            apart=frozenset(id(f) for f in [*quoted, *firsts, *emitter.table.values()]))
    # Code names each constant by the entry it is bound to (equal constants share one entry and name).
    for ref in const_refs:
        ref.id = "_k%d" % entry_of_name[ref.id]
    ast.fix_missing_locations(mod)
    # the module's functions (fn bodies, then the units of top-level forms that are not direct defs) can
    # move to parts; the statements that run stay: the parts are read before the first of them
    functions = [*emitter.functions, *(u for u in units if type(u) is ast.FunctionDef)]
    text_of = functools.cache(python_text)  # each function unparsed once: to size its part, then to write it
    groups = group_bodies(functions, part_bytes, text_of) if folder is not None else []
    if len(groups) < 2:
        groups = []
    header = '"""Compiled from %s by spellc %s. Imports only the Spell runtime."""\n\n%s\n%s\n%s\n\n' % (
        source_name, COMPILER_VERSION, SCRIPT_GC, runtime_imports(library_modules(encoder.builtin_names)),
        constants_source(entries))
    table = {**emitter.table, **emitter.place_symbols}
    parts: list[tuple[str, str]] = []
    raw_spans: list[tuple[int, int, int, int, Any, Any]] = []
    if groups:
        assert folder is not None
        mod = ast.Module(body=[*emitter.watch_statement(), *(u for u in units if type(u) is not ast.FunctionDef)],
                         type_ignores=[])
        parts, raw_spans = _part_files(groups, source_name, table, emitter.places, text_of)
        header += "from spell_runtime.built_parts import load_parts\n\n%s\n\n" % loader_source(
            folder, [name for name, _ in parts])
    body = wrap_long_lines(python_text(mod))
    # Host failures are attributed by position, so the table is keyed by positions in this very file
    # (and, for its parts, in theirs: ``spell_runtime.built_parts``).
    offset = header.count("\n")
    entry_of_form = {id(value): entry_of_name[name] for name, value in emitter.consts.items()}
    raw_spans += [(sl + offset, sc, el + offset, ec, f, key)
                  for sl, sc, el, ec, f, key in call_spans(mod, body, table, emitter.places)]
    spans = sorted(raw_spans, key=lambda span: (span[0], span[1]))
    table_src = span_table_source([(sl, sc, el, ec, entry_of_form[id(f)]) for sl, sc, el, ec, f, _ in spans],
                                  source_name, support.pack_spell_positions([key for *_, key in spans]),
                                  quoted_spans_source(quoted, entry_of_form),
                                  pack_fn_spans([(entry_of_form[id(f)], s) for f in fns if (s := span_of(f)) is not None]))
    unit_names = ", ".join("_unit%d" % i for i in range(len(forms)))
    return BuiltProgram("".join([
        header, body, "\n\n", table_src, "\n\n\n",
        "def run():\n",
        '    """Evaluate the program in a fresh environment and return its value."""\n',
        "    from spell_runtime.program import fresh_env, close_env\n\n",
        "    D = fresh_env()\n",
        "    value = None\n",
        "    try:\n",
        wrap_long_lines("        for unit in (%s%s):\n" % (unit_names, "," if len(forms) == 1 else "")),
        "            value = unit(D, [])\n",
        "    finally:\n",
        "        close_env(D)\n",
        "    return value\n\n\n",
        'if __name__ == "__main__":\n',
        "    from spell_runtime.script import run_script\n\n",
        "    run_script(run, %r, _PAUSED_GC)\n" % source_name,
        "else:\n",
        "    value = run()\n",
    ]), folder if parts else None, parts)


def _part_files(groups: list[list[ast.stmt]], source_name: str, table: dict[Any, Any], places: Collection[Any],
                text_of: Callable[[ast.stmt], str]) -> tuple[list[tuple[str, str]], list[tuple[int, int, int, int, Any, Any]]]:
    """The part files of ``groups`` (file name, text) and their call spans, part ``k``'s lines numbered
    from ``k * PART_LINE_STEP`` in the module's position table (``spell_runtime.built_parts``)."""
    files: list[tuple[str, str]] = []
    spans: list[tuple[int, int, int, int, Any, Any]] = []
    for k, group in enumerate(groups, 1):
        top = part_header(source_name, k, len(groups))
        text = part_text(group, text_of)
        files.append((part_name(k), top + text))
        shift = k * PART_LINE_STEP + top.count("\n")
        spans += [(sl + shift, sc, el + shift, ec, form, key)
                  for sl, sc, el, ec, form, key in call_spans(ast.Module(body=group, type_ignores=[]), text, table, places)]
    return files, spans


def string_lines(text: str, width: int = 100) -> str:
    """``text`` as one string literal written over lines of ``width`` characters each (the pieces of an
    implicit concatenation, each on its own indented line), for a built module's packed tables."""
    return "".join("    %r\n" % text[i:i + width] for i in range(0, len(text), width)) or "    ''\n"


def span_table_source(spans: list[tuple[int, int, int, int, int]], source_name: str, spell_packed: str,
                      quoted: str = "", fn_spans: str = "", width: int = 100) -> str:
    """``_T = SpanTable(spans_later(globals(), packed), (), source, spell)`` over short lines (issue
    12.5): per call-form span, in order of start, five numbers (``built_constants.decode_spans``, run
    on the first failure that reads the table: ``spans_later``)
    packed one or two characters each; ``spell`` holds each span's Spell position in the same order
    (``support.pack_spell_positions``), so errors in built modules name their ``.spl`` line; ``quoted``
    is the fifth argument ``written_spans.quoted_spans_source`` writes for quoted forms, if any;
    ``fn_spans`` the spans of fn forms (``built_spans.pack_fn_spans``), set at import by ``spans_later``."""
    numbers: list[int] = []
    previous = 0
    for sl, sc, el, ec, entry in spans:
        numbers += (sl - previous, sc, el - sl, ec, entry)
        previous = sl
    packed = pack_numbers(numbers)

    fns = ", (\n%s)" % string_lines(fn_spans, width) if fn_spans else ""
    return "%s_T = SpanTable(spans_later(globals(), (\n%s)%s), (), %r, (\n%s)%s)\n" % (
        QUOTED_IMPORT if quoted else "", string_lines(packed, width), fns, source_name, string_lines(spell_packed, width),
        quoted)


def run_form(D: dict[Any, Any], form: Any, source_name: str = "<spell>",
             source_text: Optional[str] = None, via_source: bool = False,
             incremental: bool = False) -> tuple[Any, list[Any]]:
    """Evaluate ``form`` in ``D``: (value, undo entries of the defs that escaped)."""
    unit = compile_unit(form, source_name, source_text, via_source, incremental)
    undo: list[Any] = []
    if not optimise.ENABLED[0]:
        return unit(D, undo), undo
    # The young-generation threshold is raised while the form runs (spell_runtime.gcpolicy, which
    # says how that behaves in long sessions): Spell values are acyclic, so the default threshold
    # only buys collections that find nothing (the assoc kernel ran 19 of them; −14% CPU).
    with evaluation_gc():
        return unit(D, undo), undo


def eval_in(D: dict[Any, Any], form: Any) -> Any:
    """Evaluate ``form`` in ``D`` without letting its definitions escape (``eval``, ``spell-eval``)."""
    undo: list[Any] = []
    unit = compile_unit(form)
    try:
        return unit(D, undo)
    finally:
        support.unwind(D, undo)


def compile_spell_fn(fn: Any) -> Callable[..., Any]:
    """Compile the body of a function value that was built as data; caches on ``fn.code``."""
    body = fn.body if fn.body is not None else ()
    code = compile_fn_form(plist([Symbol("fn"), fn.params, *list(body)]))
    if type(fn) is SpellFn:
        fn.code = code
    return code


def compile_fn_form(form: Any) -> Callable[..., Any]:
    """The compiled body of a ``(fn params body...)`` form under the current bindings, cached by its
    printed text and the places of its parts (``places``: a body standing elsewhere compiles again)."""
    from spell_runtime.printer import pr_str

    base_namespace()
    text = pr_str(form) + variant()
    place = places_of(form)  # positions are compiled in: a body at another place compiles again (``places``)
    code = state.fn_cache.get((text, place, EPOCH[0]))
    if code is None:
        node, _ = analyze_form(form)
        assert type(node) is Fn
        if node.body is None:
            raise HostError("count not supported on this type: %s" % type(form[1]).__name__)
        emitter = Emitter()
        mod = emitter.emit_fn_module(node, "_fnbody")
        code = _exec_module(mod, emitter, "<spell fn>")["_fnbody"]
        state.fn_cache[(text, place, EPOCH[0])] = code  # analysis may have moved the epoch
    return code


def _expander_fn(expander: Any) -> SpellFn:
    """A one-parameter function whose parameter pattern is the expander's whole parameter vector."""
    cached = state.expander_cache.get(id(expander))
    if cached is not None and cached[0] is expander:
        return cached[1]  # type: ignore[no-any-return]
    fn = as_spell_fn(expander)
    wrapper = SpellFn(vec([fn.params]), fn.body)
    state.expander_cache[id(expander)] = (expander, wrapper)
    return wrapper


def expand_user_macro(D: dict[Any, Any], macro: SpellMap, form: Any, name: str) -> Any:
    """Expand ``form`` with a user macro value (language.md §10.2 steps 1–3)."""
    expander = macro.get(K_EXPANDER)
    if not is_spell_fn(expander):
        raise SpellError("Macro expansion of %s failed: Not a Spell function" % name, form)
    wrapper = _expander_fn(expander)
    args = vec(list(form)[1:])
    code = wrapper.code or compile_spell_fn(wrapper)
    try:
        with macro_level(form):  # an expander that expands itself forever stops here (issue 16.3)
            return code(D, None, args)
    except SpellError as e:
        if is_limit_error(e):
            raise  # unwrapped: one short message, not one "Macro expansion of" per level
        err = SpellError("Macro expansion of %s failed: %s" % (name, e.message), form)
        raise err from None


def apply_macro(D: dict[Any, Any], macro: Any, forms: tuple[Any, ...]) -> Any:
    """``(apply-macro m form...)``: the expansion, not evaluated."""
    from spell_runtime.data.fn import is_macro
    from spell_runtime.printer import pr_str

    if not is_macro(macro):
        raise HostError("Not a Spell macro: %s" % pr_str(macro))
    wrapper = _expander_fn(macro.get(K_EXPANDER))
    code = wrapper.code or compile_spell_fn(wrapper)
    try:
        return code(D, None, vec(forms))
    except SpellError as e:
        raise HostError(e.message) from None


__all__ = ["optimisations", "set_enabled", "base_namespace", "compile_unit", "run_form", "eval_in", "compile_spell_fn",
           "expand_user_macro", "apply_macro",
           "python_source", "CTX_KEY", "destructure"]
