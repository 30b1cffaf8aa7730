"""Run a benchmark's measurement in a fresh child process per inventory, so each peak RSS is
its own: the script re-invokes itself with `--child PATH` and reads one JSON line back."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INVENTORIES = ["example", "multivendor", "gpu2048", "gpu32768"]


def run(script: str, doc: str | None, child: Callable[[str, int], None],
        default_repeat: int) -> Iterator[tuple[str, dict[str, Any], argparse.Namespace]]:
    """Parse the command line; as a child, measure and exit; as parent, yield each result."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--repeat", type=int, default=default_repeat)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.repeat)
        return
    for name in INVENTORIES:
        out = subprocess.run([sys.executable, script, "--child", str(ROOT / "inventories" / name),
                              "--repeat", str(args.repeat)], capture_output=True, text=True,
                             check=True).stdout
        yield name, json.loads(out), args
