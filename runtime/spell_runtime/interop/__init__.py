"""Spell seen from Python and Hy (packages.md §5): Hy's name mangling, exports of built modules, Python namespaces.

Nothing here imports ``hy``: the mangling rules are re-implemented from Hy's documentation, so a
built module and the run path stay free of the ``hy`` extra (architecture.md §5).
"""
