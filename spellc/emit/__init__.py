"""IR → Python ``ast`` (architecture.md §1): the emitter, split by concern (``base``, ``scopes``,
``values``, ``natives``, ``calls``, composed in ``emitter``).

A regular package rather than a namespace package: finding a namespace package's portions walks
every path entry (and any editable-install finder), which cost every ``spellc eval`` about a
millisecond of start-up (issue 12.4). Nothing is imported here.
"""
