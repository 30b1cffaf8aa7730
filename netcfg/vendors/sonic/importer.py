"""The command line both SONiC importers share (`python -m netcfg.vendors.sonic.ports` and
`...sonic.buffers`): read each catalog platform's files from a sonic-buildimage checkout and
write netcfg's data file for it, one JSON per platform, saying what it found."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def run(argv: list[str] | None, *, what: str, source: str, out: Path,
        build: Callable[[str, Path], dict[str, Any]], dumps: Callable[[dict[str, Any]], str],
        found: Callable[[dict[str, Any]], str]) -> int:
    """`build(platform, source_dir)` -> the data file; `dumps` its text; `found` what it holds
    in a few words (printed per platform)."""
    from netcfg.vendors.sonic.ports import PLATFORMS

    parser = argparse.ArgumentParser(description=f"write netcfg's SONiC {what} from a "
                                                 "sonic-buildimage checkout")
    parser.add_argument("source", type=Path, help=source)
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    args.out.mkdir(exist_ok=True)
    for platform in PLATFORMS:
        doc = build(platform, args.source)
        (args.out / f"{platform}.json").write_text(dumps(doc))
        print(f"{platform}: {found(doc)}", file=sys.stderr)
    return 0
