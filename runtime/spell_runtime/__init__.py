"""spell_runtime: everything compiled Spell code imports at run time.

It never imports the compiler (``spellc``) at module level; the one place that
needs it — evaluating new forms at run time (``eval``, ``spell-eval``, user macro
expansions) — goes through ``spell_runtime.hooks``, which loads it lazily.
"""

from . import printer as _printer  # noqa: F401  (installs repr() on the collection types: see printer.py)

__version__ = "0.1.0"
