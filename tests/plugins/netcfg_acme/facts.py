"""What acme is: its capabilities, its raw-line grammar and how it carves its buffer. Imports
only netcfg.nos, as the layers below rendering require."""

from __future__ import annotations

from netcfg.nos import Capabilities, NosFacts, PoolLayout, Switch

#: what acme keeps back of every switch's buffer before its pools (a number of this plugin's
#: own, so a test sees physics take it from the plugin)
KEPT_BACK = 1 << 20


class AcmeFacts(NosFacts):
    name = "acme"
    capabilities = Capabilities(
        hash_fields=frozenset({"src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port"}),
        watchdog_actions=frozenset({"drop"}),
        ecmp_modes=frozenset({"static"}),
        per_port_headroom=True,
        bfd=False,
    )

    def raw_line_refusal(self, lines: str) -> str | None:
        for n, line in enumerate(lines.splitlines(), 1):
            if line.split()[:1] == ["halt"]:
                return f"line {n}: 'halt' stops an acme switch"
        return None

    def pool_layout(self, switch: Switch) -> PoolLayout:
        return PoolLayout(switch.buffer, reserved=KEPT_BACK, source="acme's own buffer",
                          reserves_source="acme keeps 1 MiB back")


FACTS = AcmeFacts()
