"""``spell-test/run``: a scripted agent run inside a Spell test (testing.md §3).

``(spell-test/run {:prompt "..." :responses [...]})`` runs ``spellc.run`` with the test provider
answering from ``:responses`` (no network) and returns ``{:result :error :error-data :prompts
:usage}``: ``:prompts`` are the program prefixes the provider was asked to continue, in order,
``:usage`` the run's call and token counts. Every other key of the map is passed to ``spellc.run``
as a run option (``:init``, ``:agent-profile``, ``:depth``...), so a test can exercise exactly
what a user's run would. ``:agent "name"`` runs an installed package's agent: it becomes
``spellc.run``'s ``agent=`` keyword (the run options themselves refuse ``:agent``, runtime.md §7.2).
"""

from __future__ import annotations

from typing import Any

from spell_runtime.data import Keyword, SpellMap, spell_map, vec
from spell_runtime.errors import HostError

K_RESPONSES = Keyword("responses")
K_AGENT = Keyword("agent")


def run_scripted(opts: Any) -> Any:
    """Run the agent ``opts`` describes against the scripted test provider; the outcome as a Spell map."""
    from .. import api
    from ..providers.test_provider import TestProvider

    if not isinstance(opts, SpellMap):
        raise HostError("expects a map of run options")
    responses = opts.get(K_RESPONSES)
    provider = TestProvider(responses=list(responses) if responses is not None else [])
    options: dict[str, Any] = {"model-profile": provider}
    for key, value in opts.items():
        if type(key) is not Keyword:
            raise HostError("option keys must be keywords")
        if key is not K_RESPONSES and key is not K_AGENT:
            options[key.name] = value
    agent = opts.get(K_AGENT)
    if agent is not None and not isinstance(agent, str):
        raise HostError(":agent must be the name of an installed agent (a string)")
    try:
        outcome = api.run(options, agent=agent) if agent is not None else api.run(options)
    except (ValueError, TypeError, LookupError) as e:  # bad run options: a Spell-facing error, never a traceback
        raise HostError(str(e)) from None
    usage = outcome.get("usage_tracker")
    counts = usage.as_dict() if usage is not None else {}
    return spell_map(
        Keyword("result"), outcome.get("result"),
        Keyword("error"), outcome.get("error"),
        Keyword("error-data"), spell_data(outcome.get("error_data")),
        Keyword("prompts"), vec(provider.requests),
        Keyword("usage"), spell_map(Keyword("calls"), counts.get("calls", 0),
                                    Keyword("input-tokens"), counts.get("input_tokens", 0),
                                    Keyword("output-tokens"), counts.get("output_tokens", 0)),
    )


def spell_data(value: Any) -> Any:
    """Python data from the run API as Spell data: dicts become maps (``"spell/fault"`` → ``:spell/fault``)."""
    if isinstance(value, dict):
        items: list[Any] = []
        for k, v in value.items():
            items += [_keyword(k) if isinstance(k, str) else k, spell_data(v)]
        return spell_map(*items)
    if isinstance(value, (list, tuple)):
        return vec(spell_data(v) for v in value)
    return value


def _keyword(name: str) -> Keyword:
    ns, _, local = name.rpartition("/")
    return Keyword(local, ns) if ns else Keyword(name)
