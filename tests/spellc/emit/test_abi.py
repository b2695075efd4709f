"""Every global name generated code reads is defined by the runtime ABI (``spell_runtime.abi``) or by
the generated module itself; and the ABI's namespace holds exactly the names ``H`` declares."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest
from spell_runtime import stale_bodies
from spell_runtime.abi import LEGACY, H, compiled_namespace, helper_names

import spellc
from spellc.analyze.analyzer import analyze_form
from spellc.emit.emitter import Emitter

# One program per construct the emitter lowers differently (contexts, scopes, exits, calls, ops).
CORPUS = [
    "42", "x", "inc", "strings/trim", "my/thing", "[1 x]", "{:a x}", "(if x 1 2)", "(do 1 x)",
    "(def y 1)", "(let [a 1 [b] [2]] (+ a b))", "(fn [n] (* n n))", "(quine q (count q))",
    "(reopen '(quine c (eval (do 1))) (def z 2) (reopen-eval (+ 1 2)))",
    "(loop [i 0] (if (< i 3) (recur (inc i)) i))", "(recur 1)", "(fn [a] (recur))",
    "(loop [x 0 y 1] (if (= x 0) (recur (f 1)) [x y]))",
    "(for [a [1 2] :when (odd? a) :let [b a]] b)", "(try (throw 1) (catch e e))",
    "(f 1 2)", "(f (let [a 1] a) 2)", "(conj [] 1)", "(+ 1 x)", "(:k {:k 1})", "(throw \"x\")", "(def)",
    "((fn [x] x) 1)", "(map inc [1])", "(do 1 2 3 4 5 6 7 8 9)", "(defn g [x] (g x (h 1) :a))",
    "(true? 1)", "(nil? x)", "(not x)", "(= x :a)", "(inc x)", "(dec 2.0)", "(zero? x)", "(neg x)",
    "(count x)", "(first x)", "(nth x 1)", "(get m :k)", "(assoc m :k 1)", "(< x 1.5)", "(inc (* x 2))",
    "(fn [x] (let [y (* x 2)] (if (pos? y) {:a y} (recur (dec x)))))", "(fn [{:keys [a]}] (def q a) q)",
]


def generated_modules() -> list[tuple[str, ast.Module, Emitter]]:
    out = []
    for src in CORPUS:
        node, _ = analyze_form(spellc.read_string(src))
        emitter = Emitter()
        out.append((src, emitter.emit_unit(node), emitter))
    return out


def global_reads(mod: ast.Module) -> set[str]:
    """Names read that no function of the module binds (parameters, assignments, walrus, handlers)."""
    local: set[str] = set()
    reads: set[str] = set()
    for n in ast.walk(mod):
        if isinstance(n, ast.Name):
            (reads if isinstance(n.ctx, ast.Load) else local).add(n.id)
        elif isinstance(n, ast.arg):
            local.add(n.arg)
        elif isinstance(n, ast.FunctionDef):
            local.add(n.name)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            local.add(n.name)
    return reads - local


@pytest.mark.parametrize(("src", "mod", "emitter"), generated_modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_global_the_emitter_writes_is_defined(src: str, mod: ast.Module, emitter: Emitter) -> None:
    known = set(compiled_namespace()) | set(emitter.consts) | set(dir(builtins)) | {"_T"}
    assert global_reads(mod) - known == set()


def test_the_namespace_is_exactly_the_declared_helpers() -> None:
    assert set(compiled_namespace()) == helper_names()
    assert H.op("add") in helper_names()
    with pytest.raises(AssertionError):
        H.op("no-such-op")


def test_every_declared_helper_is_written_by_the_emitter() -> None:
    """A helper the emitter no longer writes leaves the ABI unless modules built before still call it
    (``abi.LEGACY``; native operators are checked by test_native_ops)."""
    emit_dir = Path(spellc.__file__).parent / "emit"
    source = "\n".join(p.read_text(encoding="utf-8") for p in emit_dir.glob("*.py"))
    declared = [k for k in vars(H) if k.isupper()]
    written = set(re.findall(r"\bH\.([A-Z_0-9]+)\b", source))
    assert [k for k in declared if k not in written and k not in LEGACY] == []
    assert [k for k in LEGACY if k in written or k not in declared] == []


def test_the_stubs_of_stale_bodies_call_the_helper_by_its_name_in_compiled_modules() -> None:
    assert stale_bodies.STALE_HERE == H.STALE_HERE
