"""What Arista EOS is, for the layers below rendering: its capabilities and the banner lines
NAPALM's EOS driver carries as written."""

from __future__ import annotations

from netcfg.nos import NosFacts
from netcfg.vendors.eos.capabilities import CAPABILITIES


class EosFacts(NosFacts):
    name = "eos"
    capabilities = CAPABILITIES

    def banner_refusal(self, text: str) -> str | None:
        """NAPALM's EOS driver strips every line it sends and drops blank ones and `!`
        comments, and the banner ends at a line `EOF` (napalm eos.py `_load_config`,
        `_multiline_convert`): such lines would not reach the switch as written."""
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip() or line != line.strip() or line.startswith("!") \
                    or line == "EOF":
                return (f"line {n} {line!r}: EOS banners cannot hold blank lines, leading or "
                        "trailing blanks, lines starting with '!' or a line 'EOF'")
        return None


FACTS = EosFacts()
