"""ex-info builds plain data; the accessors read only that exact shape."""

from __future__ import annotations

from spell_runtime.core.exceptions import ex_cause, ex_data, ex_info, ex_message, is_spell_exception
from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.hashmap import spell_map
from spell_runtime.printer import pr_str

K = Keyword("k")
EXC = Keyword("exception", "spell")
MESSAGE = Keyword("message")


def test_ex_info_is_plain_data_in_key_order() -> None:
    assert pr_str(ex_info("m", spell_map(K, 1))) == '{:spell/exception true, :message "m", :data {:k 1}}'
    assert pr_str(ex_info("m", None, None)) == '{:spell/exception true, :message "m", :data nil}'
    inner = ex_info("inner", None)
    outer = ex_info("outer", spell_map(K, 2), inner)
    assert pr_str(outer) == ('{:spell/exception true, :message "outer", :data {:k 2}, :cause '
                             '{:spell/exception true, :message "inner", :data nil}}')


def test_accessors() -> None:
    inner = ex_info("inner", None)
    e = ex_info("boom", spell_map(K, 1), inner)
    assert ex_message(e) == "boom"
    assert pr_str(ex_data(e)) == "{:k 1}"
    assert ex_cause(e) is inner
    assert ex_cause(inner) is None


def test_accessors_answer_nil_for_other_values() -> None:
    caught = spell_map(MESSAGE, "Function call failed: /: Divide by zero", Keyword("expr"), Symbol("x"))
    truthy_not_true = spell_map(EXC, 1, MESSAGE, "m")
    for v in (caught, truthy_not_true, None, "boom", 5):
        assert ex_message(v) is None and ex_data(v) is None and ex_cause(v) is None
    assert is_spell_exception(spell_map(EXC, True)) and not is_spell_exception(truthy_not_true)
