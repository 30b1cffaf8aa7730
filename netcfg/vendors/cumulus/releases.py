"""How each Cumulus Linux release spells what netcfg renders: the one table the NVUE build reads.

Cumulus Linux 5.15 renamed a set of NVUE attributes (NVIDIA, "New and Changed NVUE Commands",
CumulusNetworks/docs content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md
@07d58d4b, tabs "IP Interface" and "On/Off"); no release accepts both spellings in one document
as far as NVIDIA's tables say, so a file is written for exactly one release. Each entry below
names the 5.15 table row it follows; the 5.14 column of the same rows is the 5.14 spelling
(5.14 pages: BGP, BFD, ECMP as cited in docs/render-cumulus.md).

Values that did not change between 5.14 and 5.15 (QoS `enable|disable`, link speed and MTU,
`type`, `remote-as`) are not in the table: the templates write them directly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spelling:
    """The NVUE words of one release for the statements netcfg renders."""

    release: str
    #: `interface <if> <ip|ipv4> address <prefix>` (5.15 table, IP Interface:
    #: `ip address <ip-prefix-id>` -> `ipv4 address <ipv4-prefix-id>`)
    address_family: str
    #: the attribute that switches an object on: `router bgp`, `vrf <v> router bgp`,
    #: `address-family ipv4-unicast`, `neighbor <n> bfd` (5.15 table, On/Off:
    #: `... enable on|off` -> `... state enabled|disabled`)
    switch: str
    #: the words for on and off (5.15 table, On/Off: `ecmp-hash <field> on|off` ->
    #: `enabled|disabled`, `path-selection multipath aspath-ignore on|off` ->
    #: `enabled|disabled`)
    on: str
    off: str
    #: BGP BFD through a `router bfd profile` the neighbour names (5.15 "Bidirectional
    #: Forwarding Detection - BFD" @5810501f: `nv set router bfd state enabled`, `router bfd
    #: profile <p> detect-multiplier|min-tx-interval|min-rx-interval`, `vrf default router bgp
    #: neighbor <n> bfd profile <p>`), instead of the timers on the neighbour (5.14 page:
    #: `neighbor <n> bfd enable on`, `detect-multiplier`, `min-rx-interval`, `min-tx-interval`)
    bfd_profiles: bool
    #: NTP and DNS under `system` (5.15 NVUE reference, NTP and DNS pages: `nv set system ntp
    #: vrf <vrf-id>`, `nv set system ntp server <server-id>`, `nv set system dns server
    #: <dns-server-id>`), instead of `service ntp|dns <vrf-id> server <id>` (5.14 and earlier,
    #: as the same pages say)
    services_under_system: bool
    #: an interface's VRF under its address family (`interface <if> ip vrf <vrf>`, 5.14) or
    #: on the interface itself (5.15 table, IP Interface: `ip vrf <vrf-name>` -> `vrf
    #: <vrf-name>`)
    vrf_under_address_family: bool

    def word(self, value: bool) -> str:
        return self.on if value else self.off


RELEASES: dict[str, Spelling] = {
    "5.14": Spelling("5.14", address_family="ip", switch="enable", on="on", off="off",
                     bfd_profiles=False, services_under_system=False,
                     vrf_under_address_family=True),
    "5.15": Spelling("5.15", address_family="ipv4", switch="state", on="enabled",
                     off="disabled", bfd_profiles=True, services_under_system=True,
                     vrf_under_address_family=False),
}


def spelling(release: str) -> Spelling:
    """The spelling of `release`; ValueError names the known ones (the catalog's releases of
    cumulus must all be here: tests/vendors/test_cumulus_releases.py)."""
    try:
        return RELEASES[release]
    except KeyError:
        raise ValueError(f"no NVUE spelling for Cumulus Linux {release!r}; known: "
                         f"{', '.join(RELEASES)}") from None
