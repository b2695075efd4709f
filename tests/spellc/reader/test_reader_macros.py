"""Reader macros (language.md §2.5, §2.8): the forms they read as."""

from __future__ import annotations

import re
from typing import Any

from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.plist import PList
from spell_runtime.printer import pr_str

from spellc.reader import read_all

S = Symbol


def read1(text: str) -> Any:
    [form] = read_all(text)
    return form


def shape(text: str) -> str:
    """pr-str of the one form, with gensym numbers replaced by N."""
    return re.sub(r"__\d+", "__N", pr_str(read1(text)))


def test_quote_deref_var_unquote() -> None:
    assert pr_str(read1("'x")) == "(quote x)"
    assert pr_str(read1("''x")) == "(quote (quote x))"
    assert pr_str(read1("@a")) == "(clojure.core/deref a)"
    assert pr_str(read1("#'f")) == "(var f)"
    assert pr_str(read1("~x")) == "(clojure.core/unquote x)"
    assert pr_str(read1("~@xs")) == "(clojure.core/unquote-splicing xs)"
    assert pr_str(read1("' ; note\n x")) == "(quote x)"


def test_quote_heads_are_the_right_symbols() -> None:
    form = read1("@a")
    assert type(form) is PList and form.first is Symbol("deref", "clojure.core")


def test_discard() -> None:
    assert read_all("[1 #_2 3]") == read_all("[1 3]")
    assert read_all("#_ #_ a b c") == [S("c")]
    assert read_all("'#_a b") == read_all("'b")
    assert read_all("(+ 1 #_(* 100 100) 2)") == read_all("(+ 1 2)")


def test_metadata_is_validated_then_dropped() -> None:
    assert read1("^:private [1]") == read1("[1]")
    assert read1("^String x") is S("x")
    assert read1('^"T" x') is S("x")
    assert read1("^{:a 1} (f)") == read1("(f)")
    assert read1("^[long] f") is S("f")
    assert read1("#^:a x") is S("x")
    assert read1("^:a ^:b #{1}") == read1("#{1}")


def test_anonymous_functions() -> None:
    assert shape("#(+ % 1)") == "(fn* [p1__N#] (+ p1__N# 1))"
    assert shape("#(- %2 %1)") == "(fn* [p1__N# p2__N#] (- p2__N# p1__N#))"
    assert shape("#(f %&)") == "(fn* [& rest__N#] (f rest__N#))"
    assert shape("#(f % %3 %&)") == "(fn* [p1__N# p2__N# p3__N# & rest__N#] (f p1__N# p3__N# rest__N#))"
    assert shape("#()") == "(fn* [] ())"
    assert shape("#(vector)") == "(fn* [] (vector))"


def test_anonymous_function_params_are_shared_and_unique() -> None:
    form = read1("#(* % %1)")
    params = form[1]
    body = form[2]
    assert body[1] is params[0] and body[2] is params[0]
    other = read1("#(* % %1)")
    assert other[1][0] is not params[0]


def test_percent_outside_anonymous_function_is_a_symbol() -> None:
    assert read_all("% %1 %&") == [S("%"), S("%1"), S("%&")]


def test_gensym_numbers_follow_first_use() -> None:
    form = read1("#(f %3 %)")
    names = [p.name for p in form[1]]
    numbers = [int(re.search(r"__(\d+)#", n).group(1)) for n in names]  # type: ignore[union-attr]
    # %3 registered first, then %, then the missing %2 at the end.
    assert numbers[2] < numbers[0] < numbers[1]


def test_syntax_quote_symbols() -> None:
    assert pr_str(read1("`x")) == "(quote user/x)"
    assert pr_str(read1("`map")) == "(quote clojure.core/map)"
    assert pr_str(read1("`if")) == "(quote if)"
    assert pr_str(read1("`&")) == "(quote &)"
    assert pr_str(read1("`strings/trim")) == "(quote strings/trim)"
    assert pr_str(read1("`String")) == "(quote java.lang.String)"
    assert pr_str(read1("`String/valueOf")) == "(quote java.lang.String/valueOf)"
    assert pr_str(read1("`a.b")) == "(quote a.b)"
    assert pr_str(read1("`.m")) == "(quote .m)"
    assert pr_str(read1("`Foo.")) == "(quote Foo.)"


def test_syntax_quote_literals() -> None:
    assert read1("`1") == 1
    assert read1('`"s"') == "s"
    assert read1("`:k") is Keyword("k")
    assert pr_str(read1("`nil")) == "(quote nil)"
    assert pr_str(read1("`true")) == "(quote true)"


def test_syntax_quote_collections() -> None:
    assert pr_str(read1("`(a ~b ~@c)")) == (
        "(clojure.core/seq (clojure.core/concat (clojure.core/list (quote user/a))"
        " (clojure.core/list b) c))"
    )
    assert pr_str(read1("`[1]")) == (
        "(clojure.core/apply clojure.core/vector (clojure.core/seq (clojure.core/concat (clojure.core/list 1))))"
    )
    assert pr_str(read1("`{:a ~b}")) == (
        "(clojure.core/apply clojure.core/hash-map (clojure.core/seq (clojure.core/concat"
        " (clojure.core/list :a) (clojure.core/list b))))"
    )
    assert pr_str(read1("`#{x}")) == (
        "(clojure.core/apply clojure.core/hash-set (clojure.core/seq (clojure.core/concat"
        " (clojure.core/list (quote user/x)))))"
    )
    assert pr_str(read1("`()")) == "(clojure.core/list)"
    assert read1("`~x") is S("x")


def test_syntax_quote_auto_gensyms() -> None:
    form = read1("`(x# x# y#)")
    text = pr_str(form)
    names = re.findall(r"\(quote (\w+__\d+__auto__)\)", text)
    assert len(names) == 3 and names[0] == names[1] != names[2]
    assert names[0].startswith("x__") and names[2].startswith("y__")
    assert pr_str(read1("`x#")) != pr_str(read1("`x#"))  # a fresh name per syntax-quote


def test_deep_syntax_quote_does_not_recurse() -> None:
    depth = 5000
    form = read1("`" + "(" * depth + ")" * depth)
    assert type(form) is PList
