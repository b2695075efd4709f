"""``spellc run``: run an agent program or a prompt through the turn loop (runtime.md §7).

A program that never calls the model simply evaluates and prints its value, so
``spellc run prog.spl`` works without any provider; the model is needed only
when the program (or ``--prompt``) asks for a turn. One progress line per model
call goes to stderr — through ``rich`` when it is installed and stderr is a
terminal, as plain lines otherwise — so stdout carries only the result.

Exit status: 0 ok, 1 a Spell or run error (reader errors as ``FILE:LINE:COL: message``),
2 a usage error (bad options or profiles).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any, NoReturn, Optional

import click

EXIT_ERROR = 1
EXIT_USAGE = 2
PROVIDERS = ("openai", "anthropic", "test")


class NoModelProvider:
    """Stands in when no model was configured: evaluating works, asking the model explains what is missing."""

    supports_prefill = True

    def complete(self, request: Any) -> Any:
        from .providers.base import ProviderError

        raise ProviderError("No model configured: pass --model-profile or --provider", reason="no-model")


def _usage(message: str) -> NoReturn:
    click.echo("error: " + message, err=True)
    sys.exit(EXIT_USAGE)


def _model_profile(model_profile: Optional[str], provider: Optional[str], model: Optional[str],
                   responses: Optional[str]) -> Any:
    if model_profile and provider:
        _usage("give either --model-profile or --provider, not both")
    if model_profile:
        return model_profile
    if provider is None:
        if responses is not None:
            provider = "test"
        else:
            return NoModelProvider()
    profile: dict[str, Any] = {"provider": provider}
    if model:
        profile["default-model"] = model
    if responses is not None:
        if provider != "test":
            _usage("--responses needs --provider test")
        try:
            with open(responses, encoding="utf-8") as fh:
                scripted = json.load(fh)
        except (OSError, ValueError) as e:
            _usage("cannot read --responses %s: %s" % (responses, e))
        if not isinstance(scripted, list) or not all(isinstance(r, (str, dict)) for r in scripted):
            _usage("--responses must be a JSON list of strings")
        profile["responses"] = scripted
    return profile


def _progress_printer() -> Callable[[Any], None]:
    """One line per model call; rich styling only on a terminal with rich installed."""
    console: Any = None
    if sys.stderr.isatty():
        try:
            console = import_module("rich.console").Console(stderr=True)  # optional, not a dependency
        except ImportError:
            console = None

    def show(event: Any) -> None:
        status = ("error: " + event.error) if event.error else "%d chars back" % event.response_chars
        line = "turn %d  depth %d  prefix %d chars  %s  %.2fs" % (event.turn, event.depth, event.prefix_chars,
                                                                 status, event.seconds)
        handle = getattr(event, "handle", None)
        if handle is not None and handle.name != "main":
            line = "%s  %s" % (line, handle)  # a spawned agent's turn (runtime.md §11)
        if console is not None:
            console.print(line, style="red" if event.error else "dim", highlight=False)
        else:
            click.echo(line, err=True)

    return show


@click.command("run")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--prompt", help="Run this natural-language task instead of a program FILE.")
@click.option("--model-profile", "model_profile", type=click.Path(exists=True, dir_okay=False),
              help="EDN model profile.")
@click.option("--provider", type=click.Choice(PROVIDERS), help="Provider, when no --model-profile is given.")
@click.option("--model", help="Model name (overrides the profile's :default-model).")
@click.option("--responses", type=click.Path(exists=True, dir_okay=False),
              help="JSON list of scripted responses (the test provider).")
@click.option("--agent-profile", "agent_profile", type=click.Path(exists=True, dir_okay=False),
              help="Agent profile (*.agent.edn).")
@click.option("--agent", "agent", help="An installed package's agent by name (see `spellc agents list`).")
@click.option("--context-max-chars", "context_max_chars", type=int, help="Default display target (>= 128).")
@click.option("--depth", type=int, help="Nesting limit of model turns.")
@click.option("--max-consecutive-errors", "max_errors", type=int, help="Consecutive error limit.")
@click.option("--trace-dir", "trace_dir", type=click.Path(file_okay=False), help="Write an execution trace here.")
@click.option("--eval-timeout", "eval_timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Bound each evaluation by this many seconds (agent runs default to 120; plain programs: none).")
@click.option("--workspace", type=click.Path(exists=True, file_okay=False), metavar="DIR",
              help="Confine io/ paths to DIR (relative paths and processes start there).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def run_command(file: Optional[str], prompt: Optional[str], model_profile: Optional[str], provider: Optional[str],
                model: Optional[str], responses: Optional[str], agent_profile: Optional[str],
                context_max_chars: Optional[int], depth: Optional[int], max_errors: Optional[int],
                trace_dir: Optional[str], eval_timeout: Optional[float], workspace: Optional[str],
                quiet: bool, agent: Optional[str] = None) -> None:
    """Run FILE (a Spell program, - for stdin) or --prompt TEXT as an agent and print the result."""
    from spell_runtime.printer import pr_str

    from .cli_plain import checked_source, run_program
    from .loop.options import RunOptionsError
    from .loop.run import execute

    if (file is None) == (prompt is None):
        _usage("give exactly one of FILE or --prompt")
    if agent is not None and agent_profile is not None:
        _usage("give either --agent or --agent-profile, not both")
    run_options = (model_profile, provider, responses, agent_profile, context_max_chars, depth, max_errors,
                   trace_dir, model, agent)
    if file is not None and all(o is None for o in run_options):
        run_program(file, eval_timeout, workspace)  # no agent loop: an ordinary program, errors in Spell terms
        return
    options: dict[str, Any] = {"model-profile": _model_profile(model_profile, provider, model, responses)}
    if file is not None:
        options["init"] = checked_source(file)
    else:
        options["prompt"] = prompt
    for key, value in (("agent-profile", agent_profile), ("context-max-chars", context_max_chars),
                       ("depth", depth), ("max-consecutive-errors", max_errors), ("trace-dir", trace_dir),
                       ("model", model if model_profile else None), ("eval-timeout-sec", eval_timeout),
                       ("workspace", workspace)):
        if value is not None:
            options[key] = value
    if agent is not None:
        options["agent-profile"] = _installed_agent_profile(agent)
    try:
        out = execute(options, on_turn=None if quiet else _progress_printer())
    except RunOptionsError as e:
        _usage(e.message)
    if "error" in out:
        click.echo("error: " + out["error"], err=True)
        sys.exit(EXIT_ERROR)
    click.echo((pr_str(out["result"]) + "\n").encode("utf-8", "backslashreplace"), nl=False)


def _installed_agent_profile(name: str) -> Any:
    """The flattened profile of an installed package agent (packages.md §3); usage error when unknown."""
    from .agents_registry import AgentNotFound, find_agent

    try:
        return find_agent(name).profile()
    except AgentNotFound as e:
        _usage(e.message)
