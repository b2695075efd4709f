"""Many runs past one process: ``spellc benchmark-api`` (the reference's JSON contract) and ``spellc batch``.

- ``contract`` — the request/response shapes of the reference's ``spell.benchmark-api``;
- ``benchmark_api`` — one request → one response (the per-item function every backend runs);
- ``shutdown`` — the ``killed`` response written when a run is terminated before completing;
- ``jsonl`` / ``ledger`` / ``retry`` / ``progress`` — the pieces of a batch run;
- ``runner`` — drives a backend over a JSONL file of requests;
- ``backends/`` — ``local`` (one forked process per item) and ``ray`` (one Ray task per item).

Nothing here changes how a run behaves: a batch item is exactly ``spellc.run`` behind the contract.
"""
