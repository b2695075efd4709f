"""The batch progress bar: counts, failures and spend on one redrawn line — only when stderr is a terminal.

Logs and CI get nothing (a final summary line is printed by the command either
way), so a redirected stderr never fills with carriage returns.
"""

from __future__ import annotations

import sys
from typing import Final, Optional, TextIO

BAR_WIDTH: Final = 24


class Progress:
    """Redraws ``[####----] done/total  failed  running  $spent`` in place."""

    def __init__(self, total: int, stream: Optional[TextIO] = None, enabled: Optional[bool] = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._width = 0

    def show(self, done: int, failed: int, running: int, spent: float) -> None:
        if not self.enabled:
            return
        filled = BAR_WIDTH if self.total == 0 else BAR_WIDTH * done // self.total
        line = "[%s%s] %d/%d done  %d failed  %d running  $%.4f" % (
            "#" * filled, "-" * (BAR_WIDTH - filled), done, self.total, failed, running, spent)
        pad = max(0, self._width - len(line))
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\n")
            self.stream.flush()
