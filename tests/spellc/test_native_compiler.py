"""The compiler's mypyc build (``spellc.native``): used whole or not at all, and producing exactly what
its source produces."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spellc import native

requires_compiled = pytest.mark.skipif(not native.COMPILED[0], reason="the compiler's mypyc build is not in use")

# Programs that go through every compiled stage: the reader's rarer syntax (syntax-quote, tagged
# literals, characters, regexes, numbers of every kind, metadata, comments), analysis of each special
# form, and the emitter's native operators, fast paths, pipelines, loops and call sites.
PROGRAMS = [
    """;; reader
(def forms '[(a b) `(x ~y ~@zs) #"a+b" \\a \\newline 1/3 2N 1.5M 0x1F 1e3 -7 #{1 2} {:a 1 "b" [2]}
            #inst "2020-01-01T00:00:00Z" ^:meta [1] #_ ignored @x #'y])
(count forms)""",
    """(defmacro unless [c & body] (list 'if c nil (cons 'do body)))
(defn fact [n] (if (zero? n) 1 (*' n (fact (dec n)))))
(defn sum-to [n] (loop [i 0 acc 0] (if (> i n) acc (recur (inc i) (+ acc i)))))
(defn kw [m] [(:a m) (get m :b 2) (assoc m :c 3) (update m :a inc)])
(unless false [(fact 25) (sum-to 100) (kw {:a 1})])""",
    """(defn stats [xs]
  (let [evens (filter even? xs) sq (map (fn [x] (* x x)) evens)]
    {:n (count xs) :sum (reduce + 0 sq) :max (reduce max 0 xs) :groups (group-by odd? xs)
     :into (into [] (comp (map inc) (filter odd?)) xs) :some (some #(when (> % 3) %) xs)}))
(defn walk [t] (cond (map? t) (reduce-kv (fn [acc k v] (+ acc (walk v))) 0 t)
                     (vector? t) (apply + (map walk t)) :else 1))
(try (stats (range 10)) (catch e (:message e)))
[(walk {:a [1 2 {:b 3}]}) (for [a [1 2 3] :when (odd? a) :let [b (* a 10)]] [a b])]""",
    """(def counter 0)
(defn bump! [] (def counter (inc counter)) counter)
(defn f [{:keys [a b] :or {b 5}} more] (str a "-" b "-" (count more)))
(defn g [x] (if (string? x) (strings/upper-case x) (math/floor x)))
[(bump!) (bump!) (f {:a 1} []) (f {:a 1 :b 2} [3 4]) (g "x") (g 2.5) (quine q (count q))]""",
]

CHILD = r"""
import ast, json, sys
import spellc
from spellc import native
from spellc.compiler import analyze_form, base_namespace, build_module
from spellc.emit.emitter import Emitter
from spellc.reader import read_all_with_spans

out = {"compiled": native.COMPILED[0], "files": {}, "programs": []}
for name in native.COMPILED_MODULES:
    module = sys.modules.get("spellc." + name) or __import__("spellc." + name, fromlist=["_"])
    out["files"][name] = module.__file__
base_namespace()
for text in json.loads(sys.stdin.read()):
    pairs = read_all_with_spans(text)
    forms, spans = [f for f, _ in pairs], [s for _, s in pairs]
    direct = []
    for form in forms:
        node, _ = analyze_form(form)
        direct.append(ast.dump(Emitter().emit_unit(node), include_attributes=True))
    out["programs"].append({"spans": repr(spans), "direct": direct, "built": build_module(forms, "p.spl"),
                            "value": spellc.pr_str(spellc.eval_string(text))})
print(json.dumps(out))
"""


def _child(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "SPELLC_PURE_COMPILER"}
    if pure:
        env["SPELLC_PURE_COMPILER"] = "1"
    proc = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(PROGRAMS), capture_output=True,
                          text=True, env=env, check=True)
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_the_switch_loads_every_compiled_module_from_its_source() -> None:
    pure = _child(pure=True)
    assert pure["compiled"] is False
    files = pure["files"]
    assert isinstance(files, dict) and set(files) == set(native.COMPILED_MODULES)
    assert all(str(path).endswith(".py") for path in files.values())


@requires_compiled
def test_the_build_is_used_whole() -> None:
    compiled = _child(pure=False)
    files = compiled["files"]
    assert compiled["compiled"] is True and isinstance(files, dict)
    assert all(not str(path).endswith(".py") for path in files.values())


@requires_compiled
def test_compiled_and_source_compilers_produce_the_same_code() -> None:
    """Spans of every form read, every unit's ``ast`` with its positions, the whole module ``spellc
    build`` writes (constants and position tables included) and the value: identical."""
    compiled, pure = _child(pure=False), _child(pure=True)
    assert compiled["programs"] == pure["programs"]
    programs = pure["programs"]
    assert isinstance(programs, list) and len(programs) == len(PROGRAMS)
    assert "Error" not in json.dumps([p["value"] for p in programs])


def _fake_build(root: Path, library_at: float, shim_at: float, source_at: float, checkout: bool = True,
                skip: tuple[str, ...] = ()) -> str:
    """A package directory laid out as setup.py leaves a compiled build, with the given mtimes."""
    here = root / "spellc"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    here.mkdir(parents=True)
    if checkout:
        (root / "setup.py").write_text("")
    library = here / (native.LIBRARY + suffix)
    library.write_bytes(b"")
    os.utime(library, (library_at, library_at))
    for name in native.COMPILED_MODULES:
        source = here.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        os.utime(source, (source_at, source_at))
        if name not in skip:
            shim = source.with_name(source.stem + suffix)
            shim.write_bytes(b"")
            os.utime(shim, (shim_at, shim_at))
    return str(here)


def test_a_fresh_build_is_usable(tmp_path: Path) -> None:
    here = _fake_build(tmp_path, 2000.0, 2000.0, 1000.0)
    assert native.stale_or_missing(here) == [] and native.compiled_build(here)


def test_a_source_newer_than_its_build_makes_the_whole_build_unusable(tmp_path: Path) -> None:
    here = _fake_build(tmp_path, 2000.0, 2000.0, 1000.0)
    os.utime(os.path.join(here, "emit", "calls.py"), (3000.0, 3000.0))
    assert native.stale_or_missing(here) == ["emit.calls"] and not native.compiled_build(here)


def test_a_relinked_library_counts_as_a_rebuild(tmp_path: Path) -> None:
    """mypyc relinks only the library when only code changed: its time counts for every module."""
    here = _fake_build(tmp_path, 4000.0, 2000.0, 3000.0)
    assert native.compiled_build(here)


def test_a_missing_module_or_library_makes_the_build_unusable(tmp_path: Path) -> None:
    partial = _fake_build(tmp_path / "a", 2000.0, 2000.0, 1000.0, skip=("reader.reader",))
    assert native.stale_or_missing(partial) == ["reader.reader"] and not native.compiled_build(partial)
    bare = _fake_build(tmp_path / "b", 2000.0, 2000.0, 1000.0)
    next(Path(bare).glob(native.LIBRARY + "*")).unlink()
    assert not native.compiled_build(bare)


def test_an_installed_build_is_not_dated(tmp_path: Path) -> None:
    """Installing writes every file afresh in no meaningful order: only a checkout is checked for age."""
    here = _fake_build(tmp_path, 2000.0, 2000.0, 3000.0, checkout=False)
    assert native.compiled_build(here)
