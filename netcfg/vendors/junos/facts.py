"""What Junos OS Evolved is, for the layers below rendering: its capabilities, the curly-brace
grammar raw lines must follow (syntax.py) and the longest banner it takes."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.vendors.junos import syntax
from netcfg.vendors.junos.capabilities import CAPABILITIES

#: the longest `system login message|announcement` (junos-conf-system 24.4R1-EVO: string
#: length 1 .. 2048), counted on the escaped form netcfg writes
BANNER_LENGTH = 2048


def banner(text: str) -> str:
    """A Junos login message or announcement: one double-quoted string whose line breaks are
    `\\n` and whose backslashes and quotes are escaped, the special characters Juniper's
    `login` statement page lists for both (`\\n`, `\\t`, `\\'`, `\\"`, `\\\\`)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return '"' + escaped.replace("\n", "\\n") + '"'


class JunosFacts(NosFacts):
    name = "junos"
    capabilities = CAPABILITIES

    def banner_refusal(self, text: str) -> str | None:
        written = banner(text)[1:-1]
        if len(written) > BANNER_LENGTH:
            return (f"Junos takes at most {BANNER_LENGTH} characters for a login message "
                    f"or announcement (junos-conf-system 24.4R1-EVO); this one is "
                    f"{len(written)} as written, its line breaks and quotes escaped")
        return None

    def raw_line_refusal(self, lines: str) -> str | None:
        return syntax.raw_refusal(lines)


FACTS = JunosFacts()
