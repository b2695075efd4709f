"""``spellc build --emit py --pretty``: Spell positions as comments, temporaries named, same behaviour (issue 15 item 5)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main

pytest.importorskip("libcst", reason="the emit extra (in dev)")

REPO = Path(__file__).resolve().parents[2]
PROGRAM = """\
(def limit 3)
(defn word-count [s] (count (strings/split s " ")))
(defn ratio [a b]
  (/ a b))
[(word-count "a b c") (ratio 6 limit)]
"""


def build(tmp: Path, *extra: str) -> str:
    out = tmp / ("pretty.py" if extra else "plain.py")
    result = CliRunner().invoke(main, ["build", str(tmp / "prog.spl"), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out.read_text()


def run_module(tmp: Path, name: str, code: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "runtime"), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", "import %s as m\n%s" % (name, code)], cwd=tmp, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_comments_name_spell_positions_and_temporaries_are_renamed(tmp_path: Path) -> None:
    (tmp_path / "prog.spl").write_text(PROGRAM)
    plain, pretty = build(tmp_path), build(tmp_path, "--emit", "py", "--pretty")
    lines = pretty.splitlines()

    def above(pattern: str) -> str:
        """The line just above the first line matching ``pattern``."""
        at = next(i for i, line in enumerate(lines) if re.search(pattern, line))
        return lines[at - 1].strip()

    # Top-level defs of a constant or a fn are units without a function (spellc.compiler.direct).
    assert above(r"^_unit0 = _def_value\(_k\d+, 3\)$") == "# prog.spl:1:1 (def …)"
    assert above(r"^_unit1 = _def_fn\(_k\d+, _k\d+, _k\d+, _fn\d+\)$") == "# prog.spl:2:1 (defn …)"
    assert above(r"^def _fn\d+\(D, _H, a__p0, b__p1\):") == "# prog.spl:3:1 (fn …)"
    assert above(r"_k\d+\(a__p0, b__p1\)") == "# prog.spl:4:3 (/ …)"
    assert "(D, _H, s__p0)" in pretty  # parameters are renamed
    assert "# prog.spl" not in plain and "__p0" not in plain
    assert not any(line.rstrip().endswith("…)") and not line.strip().startswith("#") for line in lines)


PROGRAMS = {
    "prog": PROGRAM,
    "loops": """\
(defn fact [n] (loop [i n acc 1] (if (<= i 1) acc (recur (dec i) (*' acc i)))))
(defn pick [m k] (let [v (get m k)] (when (nil? v) (throw (str "missing " k))) v))
(defn mean [xs] (/ (reduce + 0 xs) (count xs)))
(def table {:a 1 :b 2})
[(fact 20) (pick table :a) (mean [1 2 3 4]) (map (fn [x] (* x x)) (range 5))]
""",
    "nested": """\
(defn classify [x]
  (cond (string? x) (let [n (count x)] (if (> n 3) :long :short))
        (number? x) (if (neg? x) :negative (:size {:size :number}))
        :else (first (filter keyword? [x :other]))))
(defn deep [x] (inc (inc (inc (/ 10 x)))))
(defn safe [f x] (try (f x) (catch e (str "caught: " (:err (ex-data e)) e))))
(vec (map classify ["abcd" "ab" -1 5 :k nil]))
""",
}
CALLS = {
    "prog": ["m.word_count('x y')", "m.ratio(1, 0)", "m.ratio('a', 2)"],
    "loops": ["m.fact(5)", "m.pick(m.table, Keyword('zz'))", "m.mean(vec([]))", "m.mean(vec(['a']))"],
    "nested": ["m.classify('abcdef')", "m.deep(0)", "m.deep('x')", "m.safe(m.deep, 0)", "m.classify(None)"],
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_pretty_module_behaves_identically_errors_included(tmp_path: Path, name: str) -> None:
    (tmp_path / "prog.spl").write_text(PROGRAMS[name])
    plain, pretty = build(tmp_path), build(tmp_path, "--pretty")
    assert pretty != plain and "# prog.spl:" in pretty
    lines = ["from spell_runtime.printer import pr_str", "from spell_runtime.data import Keyword, vec",
             "print(pr_str(m.value))"]
    for call in CALLS[name]:
        lines += ["try:", "    print(pr_str(%s))" % call, "except Exception as e:",
                  "    print(type(e).__name__, e, pr_str(e.expr), e.position is not None)"]
    code = "\n".join(lines)
    assert run_module(tmp_path, "pretty", code) == run_module(tmp_path, "plain", code)
    # the position table moved for the comments is written over short lines, as the compiler writes it
    table = pretty[pretty.index("_T = SpanTable("):].split("\n\n")[0].splitlines()
    assert len(table) > 3 and max(map(len, table)) <= 110, table
    if name == "prog":
        assert "Function call failed: /: Divide by zero (/ a b)" in run_module(tmp_path, "pretty", code)


def test_plain_build_imports_neither_libcst_nor_hy(tmp_path: Path) -> None:
    (tmp_path / "prog.spl").write_text(PROGRAM)
    code = ("import sys\nfrom spellc.cli import main\n"
            "try:\n    main(['build', 'prog.spl', '-o', 'x.py'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(n for n in ('libcst', 'hy') if n in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "runtime")])})
    assert out.stdout.splitlines()[-1] == "[]", out.stderr


def test_pretty_module_keeps_the_spans_a_built_module_writes(tmp_path: Path) -> None:
    """The spans of written fn forms and quoted forms (``spell_runtime.built_spans``) survive the rewrite:
    a fn applied by ``map`` and a macro's template are placed as in the plain module (and the source)."""
    (tmp_path / "prog.spl").write_text("(defmacro m [] '(/ 1\n 0))\n(defn g [xs] (map (fn [x]\n  (/ x 0)) xs))\n"
                                       "(defn h [] (m))\n")
    plain, pretty = build(tmp_path), build(tmp_path, "--pretty")
    assert "quoted_spans(globals()" in pretty
    code = "\n".join([
        "from spell_runtime.callpath import call_path_lines",
        "from spell_runtime.data import vec",
        "for call in (lambda: vec(m.g(vec([1]))), m.h):",
        "    try:",
        "        call()",
        "    except Exception as e:",
        "        print(e.position, call_path_lines(getattr(e, 'frames', []), 'prog.spl'))",
    ])
    assert plain != pretty
    out = run_module(tmp_path, "pretty", code)
    assert out == run_module(tmp_path, "plain", code)
    assert "fn  prog.spl:3:19 (called by map" in out and "(1, 16, 2, 3)" in out


LONG_NAMES = """\
(defn weighted-total [quantities unit-price discount-rate]
  (reduce + 0 (map (fn [quantity] (* quantity unit-price (- 1 discount-rate))) quantities)))
(defn describe [customer-record]
  (str (get customer-record :name "anon") ": "
       (weighted-total (get customer-record :quantities []) (get customer-record :price 0) 0.5)))
(describe {:name "q" :quantities [1 2 3] :price 4})
"""


def test_renamed_temporaries_do_not_make_long_lines(tmp_path: Path) -> None:
    """Naming temporaries after long Spell names lengthens lines the compiler cut to its width: they are
    cut again, and the module runs as the plain one does."""
    from spellc.emit.wrap import WIDTH

    (tmp_path / "prog.spl").write_text(LONG_NAMES)
    plain, pretty = build(tmp_path), build(tmp_path, "--pretty")
    assert "customer_record__p0" in pretty and "unit_price__p1" in pretty
    assert max(map(len, plain.splitlines())) <= WIDTH + 2
    assert max(map(len, pretty.splitlines())) <= WIDTH + 2
    code = "from spell_runtime.printer import pr_str\nprint(pr_str(m.value))"
    assert run_module(tmp_path, "pretty", code) == run_module(tmp_path, "plain", code) == '"q: 12.0"\n'
