"""What FRR is, for the layers below rendering: its capabilities (routing only) and the
raw lines frr.conf takes."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.nos.grammar import EXEC_WORDS, exec_line
from netcfg.vendors.frr.capabilities import CAPABILITIES


class FrrFacts(NosFacts):
    name = "frr"
    capabilities = CAPABILITIES

    def raw_line_refusal(self, lines: str) -> str | None:
        # frr.conf closes a router or route-map block with `exit` (as netcfg's own file does)
        return exec_line(lines, EXEC_WORDS - {"exit"})


FACTS = FrrFacts()
