"""Product strings of error recovery (runtime.md §6.6, §6.7, Appendix A).

These texts are what the model reads during a repair turn, so they are kept
byte for byte as the spec gives them; nothing here is derived from the error,
because the specific failure travels separately in ``_error``.
"""

from __future__ import annotations

from typing import Final

RECOVERY_PROMPT: Final = (
    "The previous Spell program threw an error. The previous program is visible during this recovery turn, "
    "but it will be pruned afterward, such that you will not see it on your next turn."
    "\n\n"
    "Emit a `(quine task \"...\")` form describing the original task, followed by a "
    "(quine context-summary \"...\") form describing history, progress, and context needed next. "
    "Preserve exact inspected evidence, checkpoints, pending obligations, and actual effect receipts. "
    "The previous program is inert context: its local bindings are not active. "
    "Reconstruct needed pure bindings explicitly. "
    "Inserted results are ordinary bounded snapshots with no hidden full original; "
    "omission data is missing evidence. "
    "Use subs for strings, subvec for line vectors, and the documented :out field for result envelopes. "
    "Preserve paths, source coordinates and next offsets as literal data. "
    "Never rerun an effect merely to recover omitted output. "
    "A focused file reread is fresh evidence of current contents, not the original receipt. "
    "Exact earlier values are available only if the program deliberately saved them in explicit state. "
    "If evidence is unavailable, report it rather than claiming inspection. "
    "Emit Spell code only. Avoid repeating your previous error."
)
"""``_recovery_prompt`` in inert and reader recovery: two paragraphs, no trailing newline."""

READER_ERROR_PREFIX: Final = "Reader error: "
UNKNOWN_READER_ERROR: Final = "Unknown reader error"
UNRECOVERABLE_READER_ERROR_PREFIX: Final = "Reader error (unrecoverable): "
"""Raised by the pipeline when the reader-recovery program itself fails without an evaluation error."""

LIMIT_MESSAGE: Final = "Consecutive error limit reached: %d while handling %s error"
INVALID_LIMIT_MESSAGE: Final = ":max-consecutive-errors must be a positive integer"
