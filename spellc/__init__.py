"""spellc: compile and run Spell, an LLM-oriented Lisp, as Python bytecode.

The public API (stable): ``read_string``, ``read_all``, ``pr_str``, ``keyword``,
``symbol``, ``SpellError``; ``eval_string`` and ``spell_eval`` once the compiler
is in place. See README.md for a tour.
"""

from spell_runtime.data.atoms import keyword, symbol
from spell_runtime.errors import SpellError

__version__ = "0.1.0"

__all__ = ["keyword", "symbol", "SpellError", "__version__"]
