"""Garbage-collector policy for evaluations (issue 13 item 3).

Spell values are almost all acyclic (tuples, cons cells, C vectors and maps,
ints), yet each of them is a container the cyclic collector counts: with
CPython's default ``gen0`` threshold of 700, a loop that builds a 10⁴-entry map
runs hundreds of young collections that find nothing. ``evaluation_gc()`` raises
the young threshold for the duration of one evaluation and restores the
caller's thresholds afterwards; ``benchmarks/bench_gc.py`` measures it on the
kernels (the figures and the choice of ``GEN0`` are recorded there).

Long sessions (an agent run evaluates thousands of forms in one process):

* the raised threshold is in force only *inside* an evaluation, so between
  turns the process collects as usual; nesting (``eval`` inside an evaluation,
  several threads evaluating at once) is counted, and the first entry's
  thresholds come back when the last one leaves;
* young garbage can reach ``GEN0`` objects before it is examined (a few MB at
  most), and cyclic garbage — rare: closures that capture themselves, error
  tracebacks — survives up to ``GEN0 / 700`` times longer; acyclic garbage is
  freed by reference counting at once, as always, so peak memory of ordinary
  programs does not change;
* ``freeze_startup()`` moves everything alive after start-up (modules, the
  builtin library, compiled prelude) into the permanent generation, so the
  full collections a long session still runs do not walk it again each time.

Process exit (issue 12.4, 12.5): a command-line process — ``spellc eval``/``run``, a built module
run as a script — ends with CPython's finalization, whose full collections walk every object still
alive: the modules, the builtin library and the program's values (about 17 ms of a 125 ms
``spellc eval '(+ 1 2)'``, more than any module import). ``skip_exit_collection()`` freezes them
when the command is done, so finalization frees them by reference counting only. Everything
else about exit stays: ``atexit`` handlers run, non-daemon threads are joined, streams are
flushed and closed. What is given up is finalizers of *cyclic* garbage still alive at exit,
which CPython does not promise to run anyway (``object.__del__``). Only the processes' own
entry points call it (``spellc.launch``, ``spell_runtime.script``), never library code: a
process that embeds spellc keeps its own exit.

Process start (issue 12.4): the same entry points turn automatic collection off while they import
the compiler and load the builtin library (``pause_for_startup``) — the young collections that
start-up allocation triggers found nothing to free and cost a few milliseconds of every
``spellc eval`` — and back on, after freezing what start-up built, before the program is evaluated
(``resume_after_startup``), so the program's own garbage is collected as always and the first
collection does not walk the start-up heap.

Entry points: ``with evaluation_gc(): ...`` around one evaluation (the compiler's
``run_form`` is the intended caller once the back-end rewrite lands), and
``freeze_startup()`` once after the library is loaded.
"""

from __future__ import annotations

import gc
import threading

GEN0 = 50_000
"""Young-generation threshold during an evaluation (CPython's default is 700)."""

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] = ()


class evaluation_gc:
    """``with evaluation_gc(): ...`` raises the young-generation threshold to ``gen0`` while the block runs.

    A class rather than a ``@contextmanager`` generator: the compiler enters it once per top-level
    form (``run_form``), and the generator and its lock cost ~6 µs per entry (issue 12.1)."""

    __slots__ = ("gen0",)

    def __init__(self, gen0: int = GEN0) -> None:
        self.gen0 = gen0

    def __enter__(self) -> None:
        global _depth, _saved
        with _lock:
            if _depth == 0:
                _saved = gc.get_threshold()
                gc.set_threshold(max(self.gen0, _saved[0]), *_saved[1:])
            _depth += 1

    def __exit__(self, *exc: object) -> None:
        global _depth
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_saved)


def freeze_startup() -> None:
    """Move every object alive now into the permanent generation (``gc.freeze``)."""
    gc.collect()
    gc.freeze()


_paused_for_startup = False


def pause_for_startup() -> None:
    """Turn automatic collection off for a command-line process's start-up (when it is on)."""
    global _paused_for_startup
    if gc.isenabled():
        gc.disable()
        _paused_for_startup = True


def resume_after_startup() -> None:
    """End ``pause_for_startup``: freeze what start-up built and collect automatically again."""
    global _paused_for_startup
    if _paused_for_startup:
        _paused_for_startup = False
        resume_paused()


def resume_paused() -> None:
    """Freeze what a start-up built with collection off, then collect automatically again: for a
    built module run as a script, which turned collection off itself before importing the runtime
    (it cannot call ``pause_for_startup`` before the runtime is imported). Freezing first matters:
    the first young collection after ``gc.enable()`` would otherwise walk everything start-up made."""
    gc.freeze()
    gc.enable()


def skip_exit_collection() -> None:
    """Leave every object alive now out of the collections CPython runs at exit (see the module
    docstring): for a command-line entry point whose work is done and whose process ends next."""
    gc.freeze()


__all__ = ["GEN0", "evaluation_gc", "freeze_startup", "pause_for_startup", "resume_after_startup",
           "skip_exit_collection"]
