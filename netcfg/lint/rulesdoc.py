"""docs/rules.md, generated from the rule registry so the docs cannot drift from the code.

Regenerate with `python -m netcfg.lint.rulesdoc docs/rules.md`; a test fails when the file
is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from netcfg.fsutil import write_atomic
from netcfg.lint.registry import all_rules, layers

HEADER = """# Lint rules

Every rule `netcfg lint` checks, generated from the rule registry (`netcfg/lint/registry.py`);
do not edit by hand: `python -m netcfg.lint.rulesdoc docs/rules.md` regenerates this file.
`netcfg lint --list-rules` prints the same list. Sources P1-P12, E1-E10 and H1-H5 are the lint
rules of the DCQCN/ECN/ECMP research notes (section 6); how to run the gate and waive a rule
is in [lint.md](lint.md).
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    rules = all_rules()
    layer = layers()
    out = [HEADER.rstrip("\n")]
    current = None
    for r in rules.values():
        if layer[r.id] != current:
            current = layer[r.id]
            out += ["", f"## {current.capitalize()}", "",
                    "| id | severity | rule | why | source |", "|---|---|---|---|---|"]
        out.append(f"| <a id=\"{r.id.lower()}\"></a>{r.id} | {r.severity} | {_cell(r.summary)} | "
                   f"{_cell(r.rationale)} | {_cell(r.source)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    """`python -m netcfg.lint.rulesdoc [FILE]`: the page to FILE, or to stdout. The arguments
    are parsed (an option such as `--help` is not taken for a file name and written to)."""
    parser = argparse.ArgumentParser(prog="python -m netcfg.lint.rulesdoc",
                                     description="Write docs/rules.md from the rule registry.")
    parser.add_argument("file", nargs="?", type=Path, help="where to write (default: stdout)")
    args = parser.parse_args(argv[1:])
    text = markdown()
    if args.file is not None:
        write_atomic(args.file, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv))
