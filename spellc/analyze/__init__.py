"""Forms → IR (architecture.md §1): ``analyzer`` builds the IR nodes of ``ir``; the other modules are
its passes and tables (native operators, types, privacy, self-calls, element facts).

A regular package rather than a namespace package, for start-up (issue 12.4; see
``spellc/emit/__init__.py``). Nothing is imported here.
"""
