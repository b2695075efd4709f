"""``python -m spellc``: the same as the ``spellc`` command."""

from .launch import main

main()
