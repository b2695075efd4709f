"""Edit markers and the quine builtins (language.md §11, runtime.md §5.3–§5.6)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from spell_runtime.core import quine
from spell_runtime.core.registry import BUILTINS, EnvFn
from spell_runtime.data import (
    EMPTY,
    Char,
    LineVector,
    Pattern,
    SpellFn,
    keyword,
    plist,
    spell_eq,
    spell_map,
    symbol,
    vec,
)
from spell_runtime.edits import apply_edits, process_siblings
from spell_runtime.errors import HostError
from spell_runtime.invoke import call
from spell_runtime.printer import pr_str

K = keyword
S = symbol


def L(*items: Any) -> Any:
    return plist(items)


def Q(x: Any) -> Any:
    return L(S("quote"), x)


def read(text: str) -> Any:
    """A tiny reader for the test forms (lists, vectors, maps, strings, ints, symbols, keywords)."""
    tokens: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()[]{}'":
            tokens.append(c)
            i += 1
        elif c == '"':
            j = text.index('"', i + 1)
            tokens.append(text[i : j + 1])
            i = j + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in "()[]{}":
                j += 1
            tokens.append(text[i:j])
            i = j
    pos = 0

    def form() -> Any:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "'":
            return Q(form())
        if tok in "([{":
            close = {"(": ")", "[": "]", "{": "}"}[tok]
            items = []
            while tokens[pos] != close:
                items.append(form())
            pos += 1
            if tok == "(":
                return plist(items)
            if tok == "[":
                return vec(items)
            return spell_map(*items)
        if tok.startswith('"'):
            return tok[1:-1]
        if tok.lstrip("-").isdigit():
            return int(tok)
        if tok == "nil":
            return None
        if tok.startswith(":"):
            return K(tok[1:])
        return S(tok)

    return form()


def edit(text: str, env: dict[Any, Any] | None = None) -> str:
    return pr_str(apply_edits(read(text), env or {}))


# -- §11.2 examples --------------------------------------------------------------------------

def test_spec_examples() -> None:
    assert edit("(quine completion (eval (do (+ 1 2) (prune) (+ 2 2))))") == "(quine completion (eval (do (+ 2 2))))"
    assert edit('(do (think "A" 1) (def x 2) (rethink 2 "C" 3))') == '(do (think "C" 3))'
    assert edit('(do (def a 1) (def b 2) (def c 3) (prune 2) (rethink 2 "retry" (def d 4)) (def e 5))') == \
        '(do (think "retry" (def d 4)) (def e 5))'
    env = {S("head"): vec([1, 2])}
    assert edit("(do (def big [1 2 3]) (persist head (subvec big 0 2)))", env) == \
        "(do (def big [1 2 3]) (persist head [1 2]))"
    assert edit("(do (persist head (subvec big 0 2)))") == "(do (persist head (subvec big 0 2)))"


def test_conformance_shaped_examples() -> None:
    assert edit("(quine completion (eval (do (def a 1) (def b 2) (prune) '(edit-reopen completion))))") == \
        "(quine completion (eval (do (def a 1) (quote (edit-reopen completion)))))"
    assert edit("(quine completion (eval (do (persist n (* 6 7)) '(edit-reopen completion))))", {S("n"): 42}) == \
        "(quine completion (eval (do (persist n 42) (quote (edit-reopen completion)))))"
    assert edit('(quine completion (eval (do (think "a" 1) (rethink "b" 2) (quote z))))') == \
        '(quine completion (eval (do (think "b" 2) (quote z))))'


# -- persist ---------------------------------------------------------------------------------

def test_persist_uses_the_value_form() -> None:
    f = SpellFn(vec([S("x")]), L(S("x")))
    env = {S("f"): f, S("s"): S("sym"), S("m"): spell_map(K("a"), 1), S("n"): None}
    assert edit("(do (persist f) (persist s 1) (persist m) (persist n 5))", env) == \
        "(do (persist f (fn [x] x)) (persist s (quote sym)) (persist m (quote {:a 1})) (persist n nil))"


def test_persist_of_a_line_vector_keeps_line_numbers() -> None:
    env = {S("rows"): LineVector(vec(["a"]), ((3, 1),))}
    out = apply_edits(read("(do (persist rows))"), env)
    assert spell_eq(out[1], L(S("persist"), S("rows"), L(S("first-line"), 3, vec(["a"]))))


def test_persist_shapes_that_are_not_materialized() -> None:
    env = {S("x"): 1}
    # unbound name: unchanged and not walked further
    assert edit("(do (persist y (do 1 (prune))))", env) == "(do (persist y (do 1 (prune))))"
    # too many elements, or a non-symbol name: an ordinary list (walked, markers apply)
    assert edit("(do (persist x 1 2 (prune)))", env) == "(do (persist x 1))"
    assert edit('(do (persist "x" 1))', env) == '(do (persist "x" 1))'


def test_persist_of_a_host_value_fails() -> None:
    with pytest.raises(HostError, match="Value has no ordinary source representation"):
        apply_edits(read("(do (persist p))"), {S("p"): Pattern("a")})


# -- what is walked -------------------------------------------------------------------------

def test_quote_and_fn_bodies_are_left_alone() -> None:
    for text in ["(do '(a (prune)) (quote (b (prune))))", "(do (fn [x] 1 (prune) 2))", "(do (fn* [x] 1 (prune)))"]:
        form = read(text)
        assert apply_edits(form, {}) is form


def test_markers_apply_at_every_list_level_but_not_inside_vectors_or_maps_directly() -> None:
    assert edit("(a (b 1 2 (prune)) 3)") == "(a (b 1) 3)"
    assert edit("[1 2 (prune)]") == "[1 2 (prune)]"
    assert edit("[(b 1 (prune))]") == "[(b)]"
    assert edit("{:k (b 1 (prune))}") == "{:k (b)}"
    assert edit("{(b 1 (prune)) 2}") == "{(b) 2}"
    # a marker inside a think body cannot remove the think itself
    assert edit('(do 1 (think "t" (def a 1) (prune)))') == '(do 1 (think "t"))'
    assert edit('(do 1 (think "t" (prune 5)))') == "(do 1 (think))"


def test_head_is_walked_but_never_pruned() -> None:
    assert edit("((f 1 (prune)) (prune))") == "((f))"


def test_inert_quine_arguments_are_siblings() -> None:
    assert edit('(quine completion "failed" (do (def _error 1)) (prune 2) (eval (do 1)))') == \
        "(quine completion (eval (do 1)))"


def test_unchanged_forms_keep_their_identity() -> None:
    form = read("(quine completion (eval (do (def x [1 {:a (f 1)}]) 'z)))")
    assert apply_edits(form, {}) is form
    changed = read("(do (def x [1 {:a (f 1)}]) (g (prune)))")
    out = apply_edits(changed, {})
    assert out is not changed and out[1] is changed[1]


def test_atoms_and_other_values_pass_through() -> None:
    for x in [None, 1, "s", S("a"), K("k"), EMPTY, vec()]:
        assert apply_edits(x, {}) is x


# -- sibling processing ----------------------------------------------------------------------

def P(*args: Any) -> Any:
    return L(S("prune"), *args)


@pytest.mark.parametrize(
    ("marker", "left"),
    [
        (P(), ["a", "b"]),
        (P(1), ["a", "b"]),
        (P(2), ["a"]),
        (P(0), ["a", "b", "c"]),
        (P(-1), ["a", "b", "c"]),
        (P(2.7), ["a"]),
        (P(Fraction(5, 2)), ["a"]),
        (P(Decimal("1.9")), ["a", "b"]),
        (P(10), []),
        (P(float("nan")), ["a", "b", "c"]),
        (P(float("inf")), []),
    ],
)
def test_prune_counts(marker: Any, left: list[str]) -> None:
    assert process_siblings(["a", "b", "c", marker]) == left


@pytest.mark.parametrize("not_marker", [P("1"), P(True), P(None), P(1, 2), L(S("prune", "ns"))])
def test_prune_lookalikes_are_kept(not_marker: Any) -> None:
    out = process_siblings(["a", not_marker])
    assert out[0] == "a" and out[1] is not_marker


def test_rethink_variants() -> None:
    def rethink(*args: Any) -> Any:
        return L(S("rethink"), *args)

    out = process_siblings(["a", "b", rethink("why", 1)])
    assert out[:1] == ["a"] and spell_eq(out[1], L(S("think"), "why", 1))
    out = process_siblings(["a", "b", "c", rethink(2, "why")])
    assert out[:1] == ["a"] and spell_eq(out[1], L(S("think"), "why"))
    out = process_siblings(["a", rethink()])
    assert len(out) == 1 and spell_eq(out[0], L(S("think")))
    out = process_siblings(["a", rethink(0, "x")])
    assert out[0] == "a" and spell_eq(out[1], L(S("think"), "x"))
    out = process_siblings(["a", rethink("2", "x")])  # a string is not a count
    assert len(out) == 1 and spell_eq(out[0], L(S("think"), "2", "x"))


# -- deep forms --------------------------------------------------------------------------------

def test_deeply_nested_forms() -> None:
    form: Any = L(S("x"), 1, P())
    for _ in range(20_000):
        form = L(S("f"), form)
    out = apply_edits(form, {})
    for _ in range(20_000):
        out = out[1]
    assert spell_eq(out, L(S("x")))


# -- wrap-cat, reopen, serialize-prefix --------------------------------------------------------

def test_wrap_cat() -> None:
    assert pr_str(quine.wrap_cat("hi", read("(def x 1)"))) == '(quine completion (eval (do "hi" (def x 1))))'
    assert pr_str(quine.wrap_cat()) == "(quine completion (eval (do)))"


def test_reopen_quine_keeps_inert_arguments() -> None:
    q = read('(quine c "ctx" (eval (do 1)))')
    assert pr_str(quine.reopen_quine(q, [2, read("(+ 1 2)")])) == '(quine c "ctx" (eval (do 1 2 (+ 1 2))))'


def test_serialize_prefix() -> None:
    q = read('(quine completion (eval (do (def x {:a 1}) "hi")))')
    assert quine.serialize_prefix_builtin(q) == '(quine completion (eval (do (def x {:a 1}) "hi" '
    assert quine.serialize_prefix(read("(quine completion (eval (do (def x 1) \"hi\"))))")) == \
        '(quine completion (eval (do (def x 1) "hi" '
    assert quine.serialize_prefix(read("(quine completion (eval (do)))")) == "(quine completion (eval (do  "


def test_serialize_prefix_renders_inert_arguments_and_first_line_forms_with_the_source_renderer() -> None:
    q = L(S("quine"), S("completion"), "ctx", spell_map(K("a"), 1, K("b"), 2),
          L(S("eval"), L(S("do"), L(S("def"), S("v"), L(S("first-line"), 4, vec(["r"]))))))
    assert quine.serialize_prefix(q) == \
        '(quine completion "ctx" {:a 1 :b 2} (eval (do (def v (first-line 4 [\n "r" ; 4\n])) '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(foo 1 2)", "reopen expects a quine form"),
        ("(quine c)", "reopen expects a quine form"),
        ("[quine c (eval (do))]", "reopen expects a quine form"),
        ("(quine c 1)", "reopen expects quine tail of the form (eval (do ...))"),
        ("(quine c (eval 1))", "reopen expects quine tail of the form (eval (do ...))"),
        ("(quine c (eval (do) 2))", "reopen expects quine tail of the form (eval (do ...))"),
        ("(quine c (eval (progn)))", "reopen expects quine tail of the form (eval (do ...))"),
        ("(quine c (eval ()))", "reopen expects quine tail of the form (eval (do ...))"),
    ],
)
def test_quine_shape_errors(text: str, message: str) -> None:
    with pytest.raises(HostError) as info:
        quine.serialize_prefix(read(text))
    assert info.value.message == message
    assert spell_eq(info.value.data.get(K("form")), read(text))
    with pytest.raises(HostError, match="reopen expects"):
        quine.reopen_quine(read(text), [])


def test_quine_error_data_has_the_tail() -> None:
    with pytest.raises(HostError) as info:
        quine.split_quine(read("(quine c (eval 1))"))
    assert pr_str(info.value.data) == "{:form (quine c (eval 1)), :tail (eval 1)}"


# -- strip-parens ------------------------------------------------------------------------------

def test_strip_parens() -> None:
    assert quine.strip_parens(3, "(quine c (eval (do 1)))") == "(quine c (eval (do 1"
    assert quine.strip_parens(2, "(a (b)) \n\t ") == "(a (b"
    assert quine.strip_parens(0, "abc  ") == "abc"
    assert quine.strip_parens(1, read("(a b)")) == "(a b"  # non-strings are pr-str'd
    assert quine.strip_parens(1, "x\u00a0)") == "x\u00a0"  # NBSP is not Java whitespace
    assert quine.strip_parens(1, "😀))") == "😀)"
    assert quine.strip_parens(2.0, "a))") == "a"


def test_strip_parens_errors() -> None:
    with pytest.raises(HostError) as info:
        quine.strip_parens(2, "(+ 1)x)")
    assert info.value.message == "strip: expected ')'"
    assert pr_str(info.value.data) == "{:char \\x, :position 5}"
    with pytest.raises(HostError) as info:
        quine.strip_parens(3, "))  ")
    assert info.value.message == "strip: not enough closing parens"
    assert pr_str(info.value.data) == "{:n 3, :length 2}"
    with pytest.raises(HostError) as info:
        quine.strip_parens(2, "😀x)")  # positions count UTF-16 units
    assert spell_eq(info.value.data, spell_map(K("char"), Char("x"), K("position"), 2))
    with pytest.raises(HostError) as info:
        quine.strip_parens(-1, "a)")
    assert info.value.message == "strip: expected ')'"
    with pytest.raises(HostError) as info:
        quine.strip_parens("1", "a)")
    assert info.value.message.startswith("class java.lang.String cannot be cast to class java.lang.Number")


# -- registration ------------------------------------------------------------------------------

def test_builtins_are_registered() -> None:
    er = BUILTINS[S("edit-reopen")]
    assert type(er) is EnvFn
    env = {S("n"): 7}
    out = call(env, er, (read("(do (persist n) 1 (prune))"),))
    assert pr_str(out) == "(do (persist n 7))"
    assert pr_str(call(env, BUILTINS[S("wrap-cat")], (1, 2))) == "(quine completion (eval (do 1 2)))"
    assert call(env, BUILTINS[S("serialize-prefix")], (read("(quine q (eval (do 1)))"),)) == "(quine q (eval (do 1 "
    assert call(env, BUILTINS[S("strip-parens")], (1, "a)")) == "a"
