"""The turn loop's side of multi-agent runs (runtime.md §11, §5.9).

- ``receipt``: the receipt step — drain a batch, append ``think``/``def msg-N``/``!extend`` forms,
  record the resumable checkpoint (called from one marked hook in ``pipeline.evaluate_form``);
- ``lifecycle``: per-run coordination (one thread per running lifecycle, dormant wakes, child
  failures as data, waits that resume the checkpoint);
- ``namespace``: the ``agents/`` effect namespace and ``workers/<name>``;
- ``computations``: ``receive``, ``!ask-await`` and the future-only ``blocking/`` namespace.

The coordination *state* lives in the runtime (``spell_runtime.agents``); everything that
evaluates programs or calls models lives here.
"""
