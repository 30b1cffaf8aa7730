"""What a Nexus 9000 runs before netcfg touches it, and the interface defaults it applies,
read from the vendor material (the vendor-data folder's `factory/` part, `factory_dir`).

* The factory configuration is ../shared/factory/nxos/running-config.factory-10.x.
  reconstructed.txt: the lines that public NX-OS 9.3/10.x captures share and that nobody
  configured (`vdc ... limit-resource`, `copp profile strict`, `rmon event 1-5`, `line
  console/vty`, `boot nxos ...`, `icam monitor scale`, ...). It is an assembly of observed
  lines, not a capture of these models: its own header and README say so. Its per-switch
  values (`<switchname>`, hashes, keys) are filled for the lab device, its two example port
  blocks give way to the device's own ports, and the day-0 bootstrap an operator gives a
  switch before netcfg can reach it is added: `feature nxapi` (NAPALM's transport) and
  `feature scp-server` (NAPALM's upload of the replace file), and the lab login in place of
  the setup script's `admin`.
* The interface defaults are the NX-OS rows of ../shared/factory/DEFAULTS.md: a routed (`no
  switchport`) Ethernet port is administratively down unless the file says `no shutdown`
  (observed on a 10.5(2) Nexus 9000v; Cisco's cisco.nxos collection: "L3 enabled default
  state is False on N9K"), loopbacks and port-channels are up, an L2 port's state is `system
  default switchport shutdown`'s. A port with no mode line takes `system default switchport`
  (L2) where the file has it, else L3: the rows say the default mode of these models is not
  stated (9300: L2, 9300-EX: L3); the lab takes the 9300-EX sentence for these later
  platforms (inferred).

Without the folder the emulator keeps its own minimal factory (hostname, the bootstrap, the
login, the management VRF) and the same defaults, and says so (`Factory.source`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: the factory part's NX-OS files
RUNNING = Path("nxos") / "running-config.factory-10.x.reconstructed.txt"
DEFAULTS = Path("DEFAULTS.md")
#: the DEFAULTS.md row (first cell) of the routed-port admin state
L3_ROW = "L3 (`no switchport`) Ethernet admin state"

#: the lab login's password as the switch stores it (a SHA-256 crypt hash of nothing anyone
#: needs: the lab checks the password the spec gives, not this)
LAB_HASH = "$5$netcfglab$" + "0" * 43
#: an SNMPv3 localized key in the form NX-OS prints (`0x` + hex)
_LAB_KEY = "0x" + "0" * 32

#: what an operator gives a factory switch so that NAPALM's nxos driver reaches it: NX-API for
#: every command, the SCP server for the replace file
BOOTSTRAP = ("feature nxapi", "feature scp-server")


class FactoryError(Exception):
    """The vendor material is not what the lab reads (a row or file missing)."""


@dataclass(frozen=True)
class Factory:
    """A switch's factory configuration and the interface defaults it runs under."""

    config: str
    #: a routed Ethernet port without `shutdown`/`no shutdown` is up
    l3_enabled: bool
    #: where both came from (the vendor files, or the emulator's built-in minimum)
    source: str
    #: NX-OS release the factory file states (None: not stated)
    version: str | None = None


def built_in(name: str, username: str) -> Factory:
    """The emulator's own minimal factory: what netcfg needs to reach it, and Cisco's routed
    port default (DEFAULTS.md's row, kept here for a lab without the vendor folder)."""
    config = (f"hostname {name}\n" + "".join(f"{line}\n" for line in BOOTSTRAP)
              + f"username {username} password 5 {LAB_HASH} role network-admin\n"
              "vrf context management\ninterface mgmt0\n  vrf member management\n")
    return Factory(config, l3_enabled=False,
                   source="built-in minimal factory (no vendor factory folder given)")


def from_vendor(factory_dir: str | Path, name: str, username: str) -> Factory:
    """The vendor factory configuration adapted to this lab device (module docstring)."""
    folder = Path(factory_dir)
    try:
        text = (folder / RUNNING).read_text(encoding="utf-8")
        defaults = (folder / DEFAULTS).read_text(encoding="utf-8")
    except OSError as exc:
        raise FactoryError(f"NX-OS factory material unreadable: {exc}") from None
    version = re.search(r"^version (\S+)", text, re.M)
    return Factory(adapt(text, name, username), l3_enabled=l3_enabled(defaults),
                   source=f"vendor factory {RUNNING} and {DEFAULTS} (NX-OS table)",
                   version=version.group(1) if version else None)


def adapt(text: str, name: str, username: str) -> str:
    """The factory file for one lab device: comments and the version header dropped (the
    emulator prints its own), `<switchname>` and the secrets filled, the example port blocks
    left out (the device's own ports are added empty, as a factory switch prints them), the
    bootstrap added after the hostname."""
    out: list[str] = []
    skip_block = False
    for raw in text.splitlines():
        line = raw.strip()
        if skip_block and raw.startswith(" "):
            continue
        skip_block = False
        if not line or line.startswith("!") or line.startswith("version "):
            continue
        if re.fullmatch(r"interface Ethernet\S+", line):
            skip_block = True
            continue
        raw = raw.replace("<switchname>", name)
        if line.startswith("username admin "):
            raw = f"username {username} password 5 {LAB_HASH} role network-admin"
        elif line.startswith("snmp-server user admin "):
            raw = (f"snmp-server user {username} network-admin auth md5 {_LAB_KEY} "
                   f"priv aes-128 {_LAB_KEY} localizedV2key")
        if "<" in raw:
            raise FactoryError(f"NX-OS factory line with a value the lab cannot fill: {line}")
        out.append(raw.rstrip())
        if line.startswith("hostname "):
            out.extend(BOOTSTRAP)
    return "\n".join(out) + "\n"


def l3_enabled(defaults: str) -> bool:
    """DEFAULTS.md's NX-OS row for a routed port's admin state: `shutdown` -> False."""
    section = defaults.split("## Cisco NX-OS", 1)
    if len(section) < 2:
        raise FactoryError("DEFAULTS.md has no Cisco NX-OS table")
    for row in section[1].split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if cells and cells[0] == L3_ROW and len(cells) > 1:
            value = cells[1].replace("*", "")
            if value.startswith("shutdown"):
                return False
            if value.startswith("no shutdown"):
                return True
            raise FactoryError(f"DEFAULTS.md: unreadable value for {L3_ROW}: {cells[1]}")
    raise FactoryError(f"DEFAULTS.md: no NX-OS row {L3_ROW!r}")
