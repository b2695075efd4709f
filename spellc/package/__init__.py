"""Precompiled agent packages (packages.md): library namespaces, the package builder, installed agents.

Submodules, each with one job: ``library`` (library ``.spl`` files), ``namespaces`` (a profile's library
references), ``manifest`` (``spell-package.edn``), ``wheel`` (writing a standard wheel), ``builder``
(``spellc package``), ``runtime`` (what an installed package's code calls at run time).
Nothing here is imported on the plain run path unless a profile names a library or an agent by name.
"""
