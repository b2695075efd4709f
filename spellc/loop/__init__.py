"""The turn loop: every model completion is the continuation of a program prefix (runtime.md §5–§8).

Modules, one job each:

* ``wrapper``   — prefix text: the root program of a prompt run, natural-language
  self-call prefixes, prompt values turned into prefixes.
* ``cleaning``  — what a raw model answer goes through before it is read (fences, echoes).
* ``pipeline``  — one model call (§5.2) and the per-completion pipeline (§6.2).
* ``selfcall``  — the effect builtins ``!llm-self`` and ``leaf-llm``.
* ``agent``     — the compiled agent: provider, system prompt, namespaces, limits.
* ``profiles``  — EDN agent and model profiles with ``:base`` inheritance.
* ``prompts``   — spellc's own system prompt texts (§5.10).
* ``options``   — public run option names and their validation (§7.2–§7.3).
* ``run``       — the public ``run`` API (§7).
* ``traces``    — the execution trace directory (§8.2).
* ``recovery``  — error recovery as pure functions (§6, §9), owned separately.
"""
