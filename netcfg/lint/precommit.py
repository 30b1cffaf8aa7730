"""pre-commit entry: lint every inventory that a changed file belongs to.

pre-commit passes the changed files; an inventory is the nearest directory holding a
fabric.yaml. Options before or between the files pass through (`--fail-on`, `--failures K`,
`--no-deadlock`, `--quiet`). Exit 1 when any inventory fails the gate.
Usage: python -m netcfg.lint.precommit [--fail-on warning] FILE...
"""

from __future__ import annotations

import sys
from pathlib import Path

from netcfg.intent.load import FABRIC_FILE


def inventory_of(file: Path) -> Path | None:
    """The inventory directory `file` belongs to, or None (not part of an inventory)."""
    for parent in [file.parent, *file.parent.parents]:
        if (parent / FABRIC_FILE).is_file():
            return parent
    return None


def main(argv: list[str]) -> int:
    from netcfg.lint.formats import text
    from netcfg.lint.run import lint

    fail_on, failures, deadlock, quiet = "error", 0, True, False
    files: list[Path] = []
    args = iter(argv)
    for arg in args:
        if arg == "--fail-on":
            fail_on = next(args, "error")
        elif arg == "--failures":
            failures = int(next(args, "0"))
        elif arg == "--no-deadlock":
            deadlock = False
        elif arg in ("--quiet", "-q"):
            quiet = True
        else:
            files.append(Path(arg))
    inventories = sorted({inv for f in files if (inv := inventory_of(f)) is not None})
    status = 0
    for inv in inventories:
        result = lint(inv, failures=failures, deadlock=deadlock)
        if quiet:  # notes left out; they never fail the gate
            result = result.quiet()
        failing = result.failing(fail_on)
        if failing or any(not c.waived for c in result.results):
            print(f"netcfg lint {inv}")
            print(text(result, fail_on, lambda s, _fg: s))
        status = max(status, 1 if failing else 0)
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
