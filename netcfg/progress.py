"""One progress bar for the long commands (diff, push, restore, the failure sweep).

click's bar on stderr when it is a terminal, so a pipeline's logs and a report piped to a
file stay clean; silent otherwise.
"""

from __future__ import annotations

import sys
from typing import Any

import click


class Progress:
    """Counts steps toward `total`; call it once per finished step, or `to` a count."""

    def __init__(self, total: int, label: str) -> None:
        self.bar = (click.progressbar(length=total, label=label, file=sys.stderr)
                    if sys.stderr.isatty() and total > 1 else None)

    def __call__(self, _: Any = None) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def to(self, done: int) -> None:
        """Moves the bar to `done` steps (for workers that report counts, not steps)."""
        if self.bar is not None and done > self.bar.pos:
            self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()
