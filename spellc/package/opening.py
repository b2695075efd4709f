"""The agent's fixed opening program, compiled when the package is built (packages.md §3 step 4).

Every ``:prompt`` run starts from the same root program,
``(quine completion (eval (do (quine prompt "…") '(!extend))))`` (runtime.md §7.2); only the
prompt string differs. Its compiled code does not depend on the prompt: the generated
Python reads every form it needs from module globals (``_k0`` the whole program, the
quine's sub-forms, the call-form position table ``_T``) and never embeds the text. So the
package compiles the program once, with a placeholder prompt, through the compiler's
public ``compile_unit`` (the very unit the turn loop would build), and records for each
global *where in the program* its value sits (a path of child indexes). At run time
``instantiate`` rebuilds those globals from the program actually read — the real
prompt's forms, with their real spans, the objects the turn loop's identity caches key
on — and binds the shipped code objects to them: no analysis, no emission, no
``compile()``.

Why the opening is one per package, not per agent: the root program is the same text for
every agent (the agent's profile changes the system prompt and bindings, not the
program), so each agent of a package shares it.

Refusals are silent and safe: a global that is not found in the program by identity and
is not plain data, a position table of a shape this code does not know, a different
compiler epoch, or a program of another shape makes ``instantiate`` return None, and the
turn loop compiles the program as before. Python tracebacks through this code show the
placeholder's columns after the prompt (line numbers and the Spell positions reported
in errors come from the real forms and are exact).
"""

from __future__ import annotations

import importlib.util
import marshal
import types
from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.data import PList, is_vector

from ..loop.wrapper import root_program

FORMAT: Final = 1
PLACEHOLDER_PROMPT: Final = "spellc package: placeholder prompt"
SOURCE_NAME: Final = "<completion>"
"""The name the turn loop compiles completions under (``pipeline._run``)."""

Path = tuple[int, ...]
Recipe = tuple[str, Any]
"""How to rebuild one global: ``("path", (i, j, …))`` a sub-form of the program, ``("tuple", recipes)``,
or ``("value", v)`` plain marshallable data."""

_PLAIN: Final = (str, int, float, bool, type(None))


class OpeningError(Exception):
    """The opening program cannot be precompiled (the package then ships none)."""


def _children(form: Any) -> Optional[list[Any]]:
    if type(form) is PList or is_vector(form):
        return list(form)
    return None


def _paths(form: Any) -> dict[int, Path]:
    """id(sub-form) → its first path inside ``form`` (lists and vectors only)."""
    found: dict[int, Path] = {}
    stack: list[tuple[Any, Path]] = [(form, ())]
    while stack:
        x, path = stack.pop()
        found.setdefault(id(x), path)
        kids = _children(x)
        if kids is not None:
            stack.extend((kid, path + (i,)) for i, kid in reversed(list(enumerate(kids))))
    return found


def _recipe(value: Any, paths: dict[int, Path]) -> Recipe:
    path = paths.get(id(value))
    if path is not None:
        return ("path", path)
    if type(value) is tuple:
        return ("tuple", tuple(_recipe(v, paths) for v in value))
    if type(value) in _PLAIN:
        return ("value", value)
    raise OpeningError("global of type %s is not part of the program" % type(value).__name__)


def _follow(form: Any, recipe: Recipe) -> Any:
    kind, arg = recipe
    if kind == "value":
        return arg
    if kind == "tuple":
        return tuple(_follow(form, r) for r in arg)
    x = form
    for i in arg:
        kids = _children(x)
        if kids is None or i >= len(kids):
            raise OpeningError("program has another shape")
        x = kids[i]
    return x


def opening_file_name() -> str:
    """``opening.cpython-311.code``: code objects are for one Python (its cache tag)."""
    import sys

    return "opening.%s.code" % sys.implementation.cache_tag


def compile_opening() -> bytes:
    """The marshalled opening program for this Python, headed by its bytecode magic (``OpeningError``).

    The code must be what a fresh run process would compile: once this process has bound a core
    name (``analyze.bound``'s epoch is not 0, e.g. a package built from a test session or a REPL),
    the compiler's state here differs, so the program is compiled in a fresh child process instead.
    """
    from ..analyze import bound

    if bound.EPOCH[0] != 0:
        return _compile_in_fresh_process()
    return _compile_here()


def _compile_in_fresh_process() -> bytes:
    import os
    import subprocess
    import sys

    import spell_runtime

    from .. import __file__ as spellc_init

    roots = [os.path.dirname(os.path.dirname(os.path.abspath(p))) for p in (spellc_init, spell_runtime.__file__)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*roots, env.get("PYTHONPATH", "")])
    code = "import sys\nfrom spellc.package.opening import compile_opening\nsys.stdout.buffer.write(compile_opening())"
    try:
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise OpeningError("cannot start a fresh process to compile it: %s" % e) from None
    if out.returncode != 0:
        lines = out.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OpeningError(lines[-1] if lines else "the child process failed")
    return out.stdout


def _compile_here() -> bytes:
    from ..analyze import bound
    from ..compiler import base_namespace, compile_unit
    from ..reader import read_all

    text = root_program(PLACEHOLDER_PROMPT)
    (form,) = read_all(text)
    unit = compile_unit(form, SOURCE_NAME, text, incremental=True)
    base = base_namespace()
    paths = _paths(form)
    codes: dict[str, Any] = {}
    consts: dict[str, Recipe] = {}
    table: list[tuple[Any, Recipe]] = []
    for name, value in unit.__globals__.items():
        if name == "__builtins__" or (name in base and base[name] is value):
            continue
        if isinstance(value, types.FunctionType) and value.__globals__ is unit.__globals__:
            if value.__defaults__ or value.__kwdefaults__ or value.__closure__:
                raise OpeningError("generated function %s has defaults or a closure" % name)
            codes[name] = value.__code__
        elif name == "_T":
            if type(value) is not dict:
                raise OpeningError("position table of type %s" % type(value).__name__)
            table = [(key, _recipe(f, paths)) for key, f in value.items()]
        else:
            consts[name] = _recipe(value, paths)
    unit_name = unit.__name__
    if codes.get(unit_name) is not unit.__code__:
        raise OpeningError("the unit is not a global of its module")
    data = {"format": FORMAT, "epoch": bound.EPOCH[0], "text": text, "unit": unit_name,
            "codes": codes, "consts": consts, "table": table}
    # Version 2 writes no back-references, whose presence depends on reference counts: the same
    # program gives the same bytes, so wheels stay byte-reproducible.
    return importlib.util.MAGIC_NUMBER + marshal.dumps(data, 2)


class Opening:
    """A precompiled opening program, ready to be bound to the program a run actually reads."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    @staticmethod
    def load(blob: bytes) -> Optional[Opening]:
        """The opening in ``blob``, or None when another Python or format wrote it."""
        magic = importlib.util.MAGIC_NUMBER
        if not blob.startswith(magic):
            return None
        try:
            data = marshal.loads(blob[len(magic):])
        except (ValueError, EOFError, TypeError):
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        return Opening(data)

    def instantiate(self, program: Any, text: str) -> Optional[Callable[[dict[Any, Any], list[Any]], Any]]:
        """The unit function that evaluates ``program`` (read from ``text``), or None to compile it instead."""
        try:
            from ..analyze import bound
            from ..compiler import base_namespace
        except ImportError:
            return None
        data = self.data
        if getattr(bound, "EPOCH", [None])[0] != data["epoch"] or type(program) is not PList:
            return None
        template = self._template()
        try:
            if not _same_shape(template, program):
                return None
            ns = dict(base_namespace())
            for name, recipe in data["consts"].items():
                ns[name] = _follow(program, recipe)
            ns["_T"] = {key: _follow(program, recipe) for key, recipe in data["table"]}
        except OpeningError:
            return None
        for name, code in data["codes"].items():
            ns[name] = types.FunctionType(code, ns, name)
        _register_source(text)
        unit: Callable[[dict[Any, Any], list[Any]], Any] = ns[data["unit"]]
        return unit

    def _template(self) -> Any:
        cached = self.data.get("_form")
        if cached is None:
            from ..reader import read_all

            cached = self.data["_form"] = read_all(self.data["text"])[0]
        return cached


def _same_shape(template: Any, program: Any) -> bool:
    """Same nesting of lists/vectors and the same atoms, except strings (the prompt)."""
    a, b = _children(template), _children(program)
    if a is None or b is None:
        if a is not None or b is not None:
            return False
        if isinstance(template, str) and isinstance(program, str):
            return True
        return type(template) is type(program) and bool(template == program)
    return (type(template) is type(program) and len(a) == len(b)
            and all(_same_shape(x, y) for x, y in zip(a, b)))


def _register_source(text: str) -> None:
    """Let tracebacks through the opening show the program's line, as compiled units do."""
    import linecache

    linecache.cache[SOURCE_NAME] = (len(text), None, text.splitlines(keepends=True), SOURCE_NAME)
