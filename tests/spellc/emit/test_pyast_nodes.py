"""``pyast`` makes nodes by giving a bare instance its whole ``__dict__`` (issue 12: cheaper than
``ast.X(...)`` plus four position stores). Each constructor must make exactly the node the plain
constructor makes: every field, the position it was made at, nothing else — so ``compile()``,
``ast.dump`` and ``ast.unparse`` cannot tell the two apart."""

from __future__ import annotations

import ast
from collections.abc import Callable

import pytest

from spellc.emit import pyast as P

POS = (3, 4, 5, 9)


def _placed(node: ast.AST) -> ast.AST:
    """``node`` and every positionable node under it without a position, at ``POS``."""
    for n in ast.walk(node):
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = POS  # type: ignore[attr-defined]
    return node


def _x() -> ast.Name:
    return ast.Name("x", ast.Load())


def _stmt() -> ast.stmt:
    return ast.Expr(ast.Name("s", ast.Load()))


# (made by pyast at POS, the same node made with the plain ``ast`` constructors)
CASES: dict[str, tuple[Callable[[], ast.AST], Callable[[], ast.AST]]] = {
    "name": (lambda: P.name("x"), lambda: ast.Name("x", ast.Load())),
    "store": (lambda: P.store("x"), lambda: ast.Name("x", ast.Store())),
    "const": (lambda: P.const(1.5), lambda: ast.Constant(1.5)),
    "call": (lambda: P.call(P.name("f"), P.name("x")), lambda: ast.Call(ast.Name("f", ast.Load()), [_x()], [])),
    "callname": (lambda: P.callname("f", P.name("x")), lambda: ast.Call(ast.Name("f", ast.Load()), [_x()], [])),
    "attr": (lambda: P.attr(P.name("x"), "a"), lambda: ast.Attribute(_x(), "a", ast.Load())),
    "subscript": (lambda: P.subscript(P.name("x"), P.const(0)),
                  lambda: ast.Subscript(_x(), ast.Constant(0), ast.Load())),
    "assign": (lambda: P.assign("y", P.name("x")), lambda: ast.Assign([ast.Name("y", ast.Store())], _x())),
    "assign_item": (lambda: P.assign_item(P.name("d"), P.const("k"), P.name("x")),
                    lambda: ast.Assign([ast.Subscript(ast.Name("d", ast.Load()), ast.Constant("k"), ast.Store())],
                                       _x())),
    "walrus": (lambda: P.walrus("y", P.name("x")), lambda: ast.NamedExpr(ast.Name("y", ast.Store()), _x())),
    "binop": (lambda: P.binop(P.name("x"), ast.Add(), P.const(1)),
              lambda: ast.BinOp(_x(), ast.Add(), ast.Constant(1))),
    "neg": (lambda: P.neg(P.name("x")), lambda: ast.UnaryOp(ast.USub(), _x())),
    "not_": (lambda: P.not_(P.name("x")), lambda: ast.UnaryOp(ast.Not(), _x())),
    "is_": (lambda: P.is_(P.name("x"), P.const(None)), lambda: ast.Compare(_x(), [ast.Is()], [ast.Constant(None)])),
    "compare": (lambda: P.compare(P.name("x"), ast.Lt(), P.const(2)),
                lambda: ast.Compare(_x(), [ast.Lt()], [ast.Constant(2)])),
    "chain": (lambda: P.chain(P.const(0), [ast.LtE(), ast.Lt()], [P.name("x"), P.const(9)]),
              lambda: ast.Compare(ast.Constant(0), [ast.LtE(), ast.Lt()], [_x(), ast.Constant(9)])),
    "and_": (lambda: P.and_(P.name("x"), P.name("y")),
             lambda: ast.BoolOp(ast.And(), [_x(), ast.Name("y", ast.Load())])),
    "or_": (lambda: P.or_(P.name("x"), P.name("y")), lambda: ast.BoolOp(ast.Or(), [_x(), ast.Name("y", ast.Load())])),
    "bitand": (lambda: P.bitand(P.name("x"), P.name("y")),
               lambda: ast.BinOp(_x(), ast.BitAnd(), ast.Name("y", ast.Load()))),
    "ifexp": (lambda: P.ifexp(P.name("x"), P.const(1), P.const(2)),
              lambda: ast.IfExp(_x(), ast.Constant(1), ast.Constant(2))),
    "tuple_": (lambda: P.tuple_([P.name("x")]), lambda: ast.Tuple([_x()], ast.Load())),
    "list_": (lambda: P.list_([P.name("x")]), lambda: ast.List([_x()], ast.Load())),
    "expr_stmt": (lambda: P.expr_stmt(P.name("x")), lambda: ast.Expr(_x())),
    "if_": (lambda: P.if_(P.name("x"), [P.expr_stmt(P.name("s"))]),
            lambda: ast.If(test=_x(), body=[_stmt()], orelse=[])),
    "if_ empty body": (lambda: P.if_(P.name("x"), []), lambda: ast.If(test=_x(), body=[ast.Pass()], orelse=[])),
    "raise_": (lambda: P.raise_(P.name("x")), lambda: ast.Raise(_x(), None)),
    "ret": (lambda: P.ret(P.name("x")), lambda: ast.Return(_x())),
    "try_": (lambda: P.try_([P.expr_stmt(P.name("s"))], "e", [P.expr_stmt(P.name("s"))], [P.expr_stmt(P.name("s"))]),
             lambda: ast.Try(body=[_stmt()],
                             handlers=[ast.ExceptHandler(type=ast.Name("BaseException", ast.Load()), name="e",
                                                         body=[_stmt()])],
                             orelse=[], finalbody=[_stmt()])),
    "try_ without handler": (lambda: P.try_([], None, [], [P.expr_stmt(P.name("s"))]),
                             lambda: ast.Try(body=[ast.Pass()], handlers=[], orelse=[], finalbody=[_stmt()])),
    "fndef": (lambda: P.fndef("f", ["D", "a"], [P.ret(P.name("a"))]),
              lambda: ast.FunctionDef(name="f", args=ast.arguments(posonlyargs=[], args=[ast.arg(arg="D"),
                                                                                          ast.arg(arg="a")],
                                                                   vararg=None, kwonlyargs=[], kw_defaults=[],
                                                                   kwarg=None, defaults=[]),
                                      body=[ast.Return(ast.Name("a", ast.Load()))], decorator_list=[], returns=None)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_constructor_makes_the_plain_node(case: str) -> None:
    made, plain = CASES[case]
    P.reset_names()
    with P.at(POS):
        node = made()
    expected = _placed(plain())
    assert ast.dump(node, include_attributes=True) == ast.dump(expected, include_attributes=True)
    # The same fields are set on the instance (a field left unset reads the class default, as before).
    for n, e in zip(ast.walk(node), ast.walk(expected)):
        assert sorted(vars(n)) == sorted(vars(e)), (type(n).__name__, sorted(vars(n)), sorted(vars(e)))


def test_made_nodes_compile_and_unparse_like_plain_ones() -> None:
    """Every constructor in one function body (expressions as expression statements; a bare store
    target cannot stand alone, ``assign`` and ``walrus`` make them): CPython compiles it, and it
    unparses to the text of the plain tree."""
    P.reset_names()
    made: list[ast.stmt] = []
    plain: list[ast.stmt] = []
    for case, (mk, pl) in CASES.items():
        if case == "store":
            continue
        with P.at(POS):
            node = mk()
            if isinstance(node, ast.expr):
                node = P.expr_stmt(node)
        expected = _placed(pl())
        if isinstance(expected, ast.expr):
            expected = _placed(ast.Expr(expected))
        assert isinstance(node, ast.stmt) and isinstance(expected, ast.stmt)
        made.append(node)
        plain.append(expected)
    with P.at(POS):
        mod = ast.Module(body=[P.fndef("g", [], made)], type_ignores=[])
    compile(mod, "<made>", "exec")
    plain_fn = _placed(ast.FunctionDef(name="g", args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                                                    kw_defaults=[], kwarg=None, defaults=[]),
                                       body=plain, decorator_list=[], returns=None))
    assert isinstance(plain_fn, ast.stmt)
    assert ast.unparse(mod) == ast.unparse(ast.Module(body=[plain_fn], type_ignores=[]))


@pytest.mark.parametrize("a, b, both_int", [(1, 2, True), (1.5, 2, False), (1, "2", False), (True, 1, False),
                                            (None, None, False)])
def test_types_are_tests_both_types_and_stores_both_operands(a: object, b: object, both_int: bool) -> None:
    """``type(x := a) is type(y := b) is int``: whatever the first type, both stores happen (the slow
    path that follows reads both temporaries), and it holds only when both types are exactly int."""
    with P.at(POS):
        test = P.types_are(P.walrus("x", P.name("a")), P.walrus("y", P.name("b")), P.name("int"))
    assert isinstance(test, ast.Compare) and len(test.ops) == 2  # one chain, no ``&`` of two tests
    tree = ast.Expression(test)
    ast.fix_missing_locations(tree)
    scope: dict[str, object] = {"a": a, "b": b}
    assert eval(compile(tree, "<test>", "eval"), scope) is both_int
    assert scope["x"] is a and scope["y"] is b
