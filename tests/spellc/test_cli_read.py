"""``spellc --version`` and ``spellc read`` through click's runner."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spellc.cli import main


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == "spellc 0.1.0\n"


def test_read_prints_each_form_back(tmp_path: Path) -> None:
    src = tmp_path / "prog.spl"
    src.write_text("; a program\n(defn f [x] {:a 'x})\n[1 2.0 \"s\\q\"] 3/6", encoding="utf-8")
    result = CliRunner().invoke(main, ["read", str(src)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "(defn f [x] {:a (quote x)})",
        '[1 2.0 "s\\\\q"]',
        "1/2",
    ]


def test_read_positions(tmp_path: Path) -> None:
    src = tmp_path / "p.spl"
    src.write_text("(a\n b) :k\n  \"x\"", encoding="utf-8")
    result = CliRunner().invoke(main, ["read", "--positions", str(src)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["1:0-2:3 (a b)", "2:4-2:6 :k", '3:2-3:5 "x"']


def test_read_from_stdin() -> None:
    result = CliRunner().invoke(main, ["read", "-"], input="(+ 1 2) #{:a}")
    assert result.exit_code == 0
    assert result.stdout == "(+ 1 2)\n#{:a}\n"


def test_reader_error_reports_file_line_column_and_exits_1(tmp_path: Path) -> None:
    src = tmp_path / "bad.spl"
    src.write_text("(ok)\n  (f ] x", encoding="utf-8")
    result = CliRunner().invoke(main, ["read", str(src)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"{src}:2:6: Unmatched delimiter: ]\n"


def test_reader_error_on_stdin_names_stdin() -> None:
    result = CliRunner().invoke(main, ["read", "-"], input='"abc')
    assert result.exit_code == 1
    assert result.stderr == "<stdin>:1:5: EOF while reading string\n"


def test_non_utf8_file_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "latin1.spl"
    src.write_bytes(b'"caf\xe9"')
    result = CliRunner().invoke(main, ["read", str(src)])
    assert result.exit_code == 1
    assert "not UTF-8" in result.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["read", str(tmp_path / "missing.spl")]).exit_code == 2
    assert CliRunner().invoke(main, ["read"]).exit_code == 2
    assert CliRunner().invoke(main, ["read", "--bogus", "-"]).exit_code == 2


def test_cli_module_imports_only_click_and_the_reader_at_module_level() -> None:
    import ast

    import spellc.cli

    tree = ast.parse(Path(spellc.cli.__file__).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported <= {"__future__", "sys", "typing", "click", ".", ".reader", ".source_input"}, imported
