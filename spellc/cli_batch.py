"""``spellc benchmark-api`` and ``spellc batch``: the command-line faces of ``spellc.batch`` (issue 17).

``benchmark-api`` is a drop-in for the reference's ``spell.benchmark-api``: one
JSON request in (``--request``, default stdin), one JSON response line out
(``--response``, default stdout); exit 0 when the response is ok, 1 when it is
not, 2 on usage errors. A SIGTERM/SIGINT before the response is written makes
the shutdown path write the ``killed`` response instead.

``batch`` runs a JSONL file of requests (each with an ``id``) and appends one
result line per id. Exit 0 when every item this run wrote is ok and none was
left unstarted, 1 when one failed or the budget left items unstarted, 2 on usage
errors, 130 when interrupted (finished results are kept; ``--resume`` runs the
rest; 143 after SIGTERM, which stops the items the same way).

Both import only click at module level; the work is imported when a command runs.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from types import FrameType
from typing import Any, NoReturn, Optional

import click

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _usage(message: str) -> NoReturn:
    click.echo("Error: " + message, err=True)
    sys.exit(EXIT_USAGE)


def _writer(dest: str) -> Any:
    """A function writing one response as a JSON line to ``dest`` (``-`` = stdout)."""

    def write(response: dict[str, Any]) -> None:
        payload = json.dumps(response) + "\n"
        if dest == "-":
            sys.stdout.write(payload)
            sys.stdout.flush()
        else:
            with open(dest, "w", encoding="utf-8") as fh:
                fh.write(payload)

    return write


def _read_request(source: str) -> Any:
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as e:
        _usage("cannot read --request %s: %s" % (source, e.strerror))
    except UnicodeDecodeError as e:
        _usage("--request is not UTF-8 text (%s)" % e.reason)
    try:
        return json.loads(text)
    except ValueError as e:
        return _NotJson(str(e))


class _NotJson:
    def __init__(self, detail: str) -> None:
        self.detail = detail


@click.command("benchmark-api")
@click.option("--request", "-r", "request_path", default="-", show_default=True, metavar="FILE|-",
              help="Request JSON path, or - for stdin.")
@click.option("--response", "-o", "response_path", default="-", show_default=True, metavar="FILE|-",
              help="Response JSON path, or - for stdout.")
def benchmark_api_command(request_path: str, response_path: str) -> None:
    """Run one JSON benchmark request (the reference's spell.benchmark-api contract) and write its response."""
    from .batch.benchmark_api import INVALID_REQUEST, RequestState, handle_request
    from .batch.shutdown import on_termination

    write = _writer(response_path)
    state = RequestState()
    on_termination(state, write)
    raw = _read_request(request_path)
    if isinstance(raw, _NotJson):
        response: dict[str, Any] = {"ok": False, "mode": "spell", "error": "Request is not valid JSON: " + raw.detail,
                                    "error_type": INVALID_REQUEST}
    else:
        response = handle_request(raw, state)
    state.finishing = True
    write(response)
    sys.exit(EXIT_OK if response.get("ok") is True else EXIT_FAILED)


class _Stopped(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the runner stops its items on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: Optional[FrameType]) -> None:
    raise _Stopped(signum)


@click.command("batch")
@click.argument("requests", type=click.Path(exists=True, dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False),
              help="Results JSONL file (one line per id, appended as items finish).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local: one process per item on this machine; ray: Ray tasks (pip install 'spellc[ray]').")
@click.option("--concurrency", type=click.IntRange(min=1), default=None,
              help="Items running at once [default: CPU count].")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per item; a longer item is stopped and recorded as killed/timeout.")
@click.option("--budget", type=click.FloatRange(min=0), default=None,
              help="Dollars for the whole batch; no new item starts once spent.")
@click.option("--resume", is_flag=True, help="Skip ids already in the results file and append the rest.")
@click.option("--trace-dir", "trace_dir", type=click.Path(file_okay=False), default=None,
              help="Write each item's execution trace to DIR/<id> (unless the request names its own).")
@click.option("--agent", default=None, help="Agent for requests that name none (an .agent.edn path or installed agent).")
@click.option("--agent-wheel", "agent_wheels", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Wheel to install on Ray nodes before items run (repeatable; ray backend).")
@click.option("--retries", type=click.IntRange(min=0), default=2, show_default=True,
              help="Extra attempts for items that failed on the environment (provider 5xx/timeouts).")
@click.option("--ray-address", "ray_address", default=None,
              help="Ray cluster to connect to [default: RAY_ADDRESS, else a local cluster].")
def batch_command(requests: str, output: str, backend: str, concurrency: Optional[int], timeout: Optional[float],
                  budget: Optional[float], resume: bool, trace_dir: Optional[str], agent: Optional[str],
                  agent_wheels: tuple[str, ...], retries: int, ray_address: Optional[str]) -> None:
    """Run REQUESTS.jsonl (one benchmark request with an "id" per line) and append results to --output."""
    from .batch.runner import BatchOptions, BatchRunner

    if os.path.exists(output) and os.path.getsize(output) > 0 and not resume:
        _usage("%s already has results; pass --resume to continue it, or choose another file" % output)
    if agent_wheels and backend != "ray":
        _usage("--agent-wheel ships wheels to Ray nodes; it needs --backend ray")
    wheels = list(agent_wheels)
    if agent is not None:
        from .batch.agents import agent_wheel, is_profile_path

        packaged = None if is_profile_path(agent) else agent_wheel(agent)
        if packaged is not None and backend == "ray":
            wheels.append(packaged)
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            _usage("--backend ray needs Ray: pip install 'spellc[ray]'")
    options = BatchOptions(requests_path=requests, output_path=output, backend=backend,
                           concurrency=concurrency or os.cpu_count() or 1, timeout=timeout, budget=budget,
                           resume=resume, trace_dir=trace_dir, agent=agent, retries=retries, wheels=tuple(wheels),
                           ray_address=ray_address)
    signal.signal(signal.SIGTERM, _stop)
    try:
        summary = BatchRunner(options).run()
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM through _stop: the runner has stopped every item
        click.echo("\ninterrupted: finished results are in %s; rerun with --resume for the rest" % output, err=True)
        sys.exit(128 + e.signum if isinstance(e, _Stopped) else EXIT_INTERRUPTED)
    except OSError as e:
        _usage("%s: %s" % (e.filename or requests, e.strerror))
    click.echo(summary.line(), err=True)
    sys.exit(EXIT_OK if summary.failed == 0 and summary.not_started == 0 else EXIT_FAILED)
