"""What a full replace does to a device, by section: added, changed, removed.

A section is a unit a network engineer names (`ntp`, `logging`, `interface Ethernet1/1`,
`system syslog`, `NTP_SERVER`); each belongs to a family (`interface`, `system syslog`). A
family the rendered file configures at all is managed by the intent, so removing one of its
sections is the intent's decision (a port that left the cabling). A section of a family the
rendered file does not configure (NTP, syslog, SNMP, a telemetry agent the team runs) would be
removed only because netcfg does not render it: the push refuses that unless the operator
names it with `--allow-removal`. Each NOS splits its text into sections through its deploy
adapter (`DeployAdapter.sections`); this module holds what they share.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from netcfg.nos.lineconfig import parse

#: section key -> (family, content): what each NOS's splitter returns
Sections = dict[str, tuple[str, str]]

#: first words that group unrelated settings: their family is the first two words
_TWO_WORD = frozenset({"ip", "ipv6", "no", "router", "management", "hardware", "system",
                       "feature", "vrf", "class-map", "policy-map", "qos", "service",
                       "spanning-tree", "aaa", "priority-flow-control", "platform", "event",
                       "vlan", "copp", "logging", "ntp", "snmp-server", "daemon"})


#: one-line settings that name an entry of their own: each entry is a section (`username
#: admin`, `snmp-server user ops`), so a device's login stays beside the intent's
_NAMED = {"username": 2, "snmp-server user": 3}

#: block headers a running config prints alone when the block is empty (an unconfigured port:
#: `interface Ethernet1` then `!` in NAPALM's EOS test data, `interface Ethernet1/1` then a
#: blank line in Cisco's factory NX-OS): the block's own section, as once it has lines, so a
#: first push changes each port rather than removing a family-wide `interface` section
_BLOCKS = frozenset({"interface"})

#: lines a `show running-config` prints that configure nothing (NX-OS's `version` header,
#: EOS's closing `end`)
_NOT_CONFIG = frozenset({"version", "end"})


@dataclass
class Change:
    """The sections a replace adds, changes and removes, and which removals nobody asked for."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: removed sections of families the rendered file does not configure
    unmanaged: list[str] = field(default_factory=list)
    #: sections the file states differently where the device's own version stays (the
    #: switch's facts, or what its NOS refuses to change: DeployAdapter.device_owned)
    kept_device: list[str] = field(default_factory=list)
    #: the device's own sections the file lacks that the preserve policy keeps (logins, AAA,
    #: management.preserve)
    preserved: list[str] = field(default_factory=list)
    #: what the replace does that takes links down by itself (DeployAdapter.disruptive)
    disruptive: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """`+2 ~5 -1` and the removed sections by name."""
        text = f"sections +{len(self.added)} ~{len(self.changed)} -{len(self.removed)}"
        if self.removed:
            shown = ", ".join(self.removed[:6]) + (" ..." if len(self.removed) > 6 else "")
            text += f" (removes {shown})"
        if self.kept_device:
            text += f"; keeps the device's own {', '.join(self.kept_device)}"
        if self.disruptive:
            text += f"; disruptive: {'; '.join(self.disruptive)}"
        return text

    def as_dict(self) -> dict[str, list[str]]:
        return {"added": self.added, "changed": self.changed, "removed": self.removed,
                "unmanaged_removals": self.unmanaged, "kept_device": self.kept_device,
                "preserved": self.preserved, "disruptive": self.disruptive}


def matches(key: str, family: str, patterns: Iterable[str]) -> bool:
    """Whether a section is named by one of `patterns`: globs of section keys or families
    (`--allow-removal`, `management.preserve`, the NOS's preserve policy)."""
    return any(fnmatchcase(key, p) or fnmatchcase(family, p) for p in patterns)


def compare(running: Sections, candidate: Sections, allowed: Iterable[str] = (),
            written: Collection[str] = ()) -> Change:
    """How `candidate` replaces `running`; `allowed`: globs of sections or families the
    operator lets go (`--allow-removal`); `written`: sections netcfg itself last put on the
    device, whose removal is the intent's decision (it dropped them)."""
    managed = {fam for fam, _ in candidate.values()}
    patterns = tuple(allowed)
    change = Change()
    for key in sorted(set(running) | set(candidate)):
        if key not in running:
            change.added.append(key)
        elif key not in candidate:
            change.removed.append(key)
            family = running[key][0]
            if family not in managed and key not in written \
                    and not matches(key, family, patterns):
                change.unmanaged.append(key)
        elif running[key][1] != candidate[key][1]:
            change.changed.append(key)
    return change


def family_of(line: str) -> str:
    """The first word of a line, or its first two where the first word groups unrelated
    settings: `hostname leaf1` -> `hostname`, `ip route ...` -> `ip route`, `ntp server ...`
    -> `ntp server`."""
    words = line.split()
    if not words:
        return ""
    return " ".join(words[:2]) if words[0].lower() in _TWO_WORD and len(words) > 1 else words[0]


def _line_statements(text: str) -> Iterator[tuple[str, str, list[str]]]:
    """(section key, family, lines) of each top-level statement of an EOS or NX-OS config: a
    block (`interface X`, `router bgp 65001`, `daemon TerminAttr`) by its first line, a one-line
    setting by its family (`ntp server ...` lines share the section `ntp server`) or its entry
    (_NAMED)."""
    for statement in parse(text):
        first = statement.lines[0].strip()
        if not first or first.startswith(("!", "#")) or first.split()[0] in _NOT_CONFIG:
            continue
        family = family_of(first)
        if len(statement.lines) > 1 or (family in _BLOCKS and len(first.split()) == 2):
            key = first
        elif family in _NAMED:
            key = " ".join(first.split()[:_NAMED[family]])
        else:
            key = family
        yield key, family, [line.rstrip() for line in statement.lines]


def line_sections(text: str) -> Sections:
    """EOS and NX-OS running configs as sections (_line_statements), content sorted."""
    out: dict[str, tuple[str, list[str]]] = {}
    for key, family, lines in _line_statements(text):
        out.setdefault(key, (family, []))[1].extend(lines)
    return {k: (fam, "\n".join(sorted(lines))) for k, (fam, lines) in out.items()}


def add_line_sections(running: str, candidate: str, keys: list[str]) -> str:
    """EOS and NX-OS: `candidate` with the lines of these sections of `running`, as the device
    has them, before a closing `end` where the candidate has one."""
    wanted = set(keys)
    lines = [line for key, _, block in _line_statements(running) if key in wanted
             for line in block]
    if not lines:
        return candidate
    body = candidate.rstrip("\n").split("\n")
    at = len(body) - 1 if body and body[-1].strip() == "end" else len(body)
    return "\n".join(body[:at] + lines + body[at:]) + "\n"

