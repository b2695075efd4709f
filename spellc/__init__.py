"""spellc: compile and run Spell, an LLM-oriented Lisp, as Python bytecode.

The public API (stable): ``read_string``, ``read_all``, ``pr_str``, ``keyword``,
``symbol``, ``SpellError``, ``eval_string``, ``spell_eval``, ``run`` and ``TestProvider`` (the last two
load the turn loop on first use). See README.md for a tour.
"""

from typing import Any

from . import native

native.select()  # before the first import of a compiled module: the build is used whole or not at all

from spell_runtime.data.atoms import keyword, symbol  # noqa: E402
from spell_runtime.errors import SpellError  # noqa: E402
from spell_runtime.printer import pr_str  # noqa: E402

from .reader import read_all as _read_all  # noqa: E402
from .reader import read_first as _read_first  # noqa: E402

__version__ = "0.1.0"


def read_string(text: str) -> Any:
    """The first form of ``text`` (None when there is none)."""
    return _read_first(text)


def read_all(text: str) -> list[Any]:
    """Every form of ``text``."""
    return _read_all(text)


def eval_string(source: str, source_name: str = "<string>", **limits: Any) -> Any:
    """Evaluate ``source`` in a fresh environment and return the last value (see ``spellc.api``).

    ``limits``: ``eval_timeout_sec``, ``max_collection_size``, ``workspace``, ``web`` (issue 16).
    """
    from .api import eval_string as run

    return run(source, source_name, **limits)


def spell_eval(form_or_text: Any, env: Any = None) -> Any:
    """Evaluate one form and return the Spell result map (see ``spellc.api``)."""
    from .api import spell_eval as run

    return run(form_or_text, env)


def run(opts: Any = None, /, **kwargs: Any) -> dict[str, Any]:
    """Run a Spell agent (runtime.md §7); see ``spellc.loop.run.run``."""
    from .api import run as run_agent

    return run_agent(opts, **kwargs)


def __getattr__(name: str) -> Any:
    """``TestProvider`` is imported on first use so that ``import spellc`` stays light."""
    if name == "TestProvider":
        from .providers.test_provider import TestProvider

        return TestProvider
    raise AttributeError("module 'spellc' has no attribute %r" % name)


__all__ = ["keyword", "symbol", "SpellError", "pr_str", "read_string", "read_all", "eval_string", "spell_eval",
           "run", "TestProvider", "__version__"]
