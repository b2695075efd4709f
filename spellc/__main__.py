"""``python -m spellc``: the same as the ``spellc`` command."""

from .cli import main

main()
