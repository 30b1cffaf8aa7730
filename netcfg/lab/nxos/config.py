"""NX-OS configuration as text: applying lines with the NX-OS rules on top of the shared modal
editor, `show running-config` / checkpoint file rendering, and the rollback patch that
`show diff rollback-patch` prints (and NAPALM parses for `compare_config`)."""

from __future__ import annotations

import re
import time

from netcfg.lab.cfgtree import ConfigError, ModalEditor, Node, render
from netcfg.lab.nxos.grammar import (
    FEATURE_GATES,
    FEATURE_OWNS,
    canonical_iface,
    nxos_grammar,
    section_key,
)

GRAMMAR = nxos_grammar()


def _norm(line: str) -> str:
    return " ".join(line.split())


def features(root: Node) -> set[str]:
    return {" ".join(n.line.split()[1:]).lower() for n in root.children
            if n.tokens[:1] == ["feature"] and n.mode is None}


class NxosEditor:
    """Applies configuration lines like NX-OS: interface names canonicalised, commands of a
    disabled feature rejected, `neighbor X remote-as N` split into the neighbor block and its
    `remote-as`, `no feature X` removing X's configuration, `!` comment lines ignored."""

    def __init__(self, root: Node, strict: bool = True) -> None:
        self.root = root
        self.editor = ModalEditor(GRAMMAR, root, strict=strict)

    @property
    def mode(self) -> str:
        return self.editor.mode

    @property
    def depth(self) -> int:
        return len(self.editor.stack) - 1

    def exit(self) -> bool:
        return self.editor.exit()

    def apply(self, line: str) -> bool:
        """Apply one line; True when it opened a sub-mode. Raises ConfigError."""
        text = line.strip()
        words = text.split()
        if not words or text.startswith("!"):
            return False
        low = [w.lower() for w in words]
        if low[0] == "interface" and len(words) == 2:
            name = canonical_iface(words[1])
            if name is not None:
                words[1] = name
                text = " ".join(words)
                low[1] = name.lower()
        self._check_feature(text, low)
        self._check_password(text, words, low)
        if low[0] == "neighbor" and len(words) == 4 and low[2] == "remote-as":
            opened = self.editor.apply(" ".join(words[:2]))
            self.editor.apply(" ".join(words[2:]))
            return opened
        opened = self.editor.apply(text)
        if low[:2] == ["no", "feature"] and self.depth == 0:
            for prefix in FEATURE_OWNS.get(" ".join(low[2:]), []):
                self.root.children = [c for c in self.root.children
                                      if tuple(c.tokens[:len(prefix)]) != prefix
                                      or (prefix == ("interface", "vlan")
                                          and not c.tokens[1].startswith("vlan"))]
        return opened

    def _check_password(self, text: str, words: list[str], low: list[str]) -> None:
        """`username U password 5 P`: P is an encrypted password, saved as given, of at most
        64 characters (Cisco Nexus 1000V command reference, `username`; the Nexus 9000
        Security Configuration Guide's `password [0 | 5]`): a SHA-256 crypt hash, the form
        NX-OS's own running configurations show. A SHA-512 one is longer than 64."""
        if low[0] != "username" or low[2:4] != ["password", "5"] or len(words) < 5:
            return
        if len(words[4]) > 64 or not _SHA256_CRYPT.fullmatch(words[4]):
            raise ConfigError(text, 4)

    def _check_feature(self, text: str, low: list[str]) -> None:
        if not self.editor.strict:
            return
        enabled = features(self.root)
        # the line may fall back to the global mode: check the gates of every mode on the stack
        body = low[1:] if low[0] in ("no", "default") and len(low) > 1 else low
        for node in self.editor.stack:
            for prefix, feature in FEATURE_GATES.get(node.mode or "", []):
                head = tuple(body[:len(prefix)])
                if prefix == ("interface", "vlan"):
                    head = tuple(body[:1]) + ((body[1][:4],) if len(body) > 1 else ())
                if head == prefix and feature not in enabled:
                    raise ConfigError(text, 0)


def parse(text: str, strict: bool = True) -> Node:
    """A configuration file (checkpoint, `copy run`, a candidate) as a tree, hierarchy from
    indentation as NX-OS reads it. Raises ConfigError on the first rejected line."""
    root = Node("", "config")
    nx = NxosEditor(root, strict=strict)
    indents = [-1]
    lines = iter(text.splitlines())
    for raw in lines:
        line = raw.strip()
        banner = _BANNER.fullmatch(raw)
        if banner is not None and banner.group(1) not in banner.group(2):
            # a banner's text runs to the line holding its delimiter again, as one statement
            body = [line]
            for more in lines:
                body.append(more)
                if banner.group(1) in more:
                    break
            while len(indents) > 1:
                indents.pop()
                nx.exit()
            nx.apply("\n".join(body))
            continue
        if not line or line.startswith("!") or line == "end":
            continue
        indent = len(raw) - len(raw.lstrip())
        while len(indents) > 1 and indents[-1] >= indent:
            indents.pop()
            nx.exit()
        if nx.apply(line):
            indents[len(nx.editor.stack) - 1:] = [indent]
        else:
            del indents[len(nx.editor.stack):]
    return root


#: the first line of a banner (`banner motd|exec <d>...`, at the left margin)
_BANNER = re.compile(r"banner (?:motd|exec) (\S)(.*)")

#: a SHA-256 crypt hash (`$5$`, optional rounds, salt up to 16, digest 43)
_SHA256_CRYPT = re.compile(r"\$5\$(rounds=\d{4,9}\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43}")

#: a split port: EthernetM/P/K (module, cage port, sub-port)
_SPLIT = re.compile(r"ethernet(\d+)/(\d+)/(\d+)")
#: `interface breakout module M port LIST map <speed>g-<n>x` (Cisco Nexus 9000 NX-OS Interfaces
#: Configuration Guide 10.6(x), ch. 3: `... port <port#> map 400g-2x`; maps 10g-4x ... 400g-2x)
_BREAKOUT = re.compile(r"interface breakout module (\d+) port ([\d,-]+) map (\d+)g-(\d+)x")


def split_ports(root: Node) -> dict[tuple[int, int], int]:
    """(module, port) -> sub-ports, from the tree's `interface breakout` lines; a map keyword
    not of Cisco's `<speed>g-<n>x` form is refused."""
    out: dict[tuple[int, int], int] = {}
    for node in root.children:
        if node.tokens[:2] != ["interface", "breakout"]:
            continue
        m = _BREAKOUT.fullmatch(" ".join(node.tokens))
        if m is None:
            raise ConfigError(node.line, len(node.tokens) - 1)
        for part in m.group(2).split(","):
            first, _, last = part.partition("-")
            for port in range(int(first), int(last or first) + 1):
                out[(int(m.group(1)), port)] = int(m.group(4))
    return out


def ensure_interfaces(root: Node, names: list[str]) -> Node:
    """Physical interfaces exist whatever a file says (NX-OS cannot delete them); a split
    port (EthernetM/P/K) exists only while a breakout line splits its cage into K or more, so
    a file configuring one without that line is refused, as the switch refuses the interface."""
    split = split_ports(root)

    def exists(name: str) -> bool:
        m = _SPLIT.fullmatch(name.lower())
        return m is None or split.get((int(m.group(1)), int(m.group(2))), 0) >= int(m.group(3))

    for node in root.children:
        if node.mode == "if" and not exists(node.tokens[1] if len(node.tokens) > 1 else ""):
            raise ConfigError(node.line, 1)
    have = {c.line.lower() for c in root.children if c.mode == "if"}
    for name in names:
        if f"interface {name}".lower() not in have and exists(name):
            root.children.append(Node(f"interface {name}", "if"))
    return root


def admin_up(node: Node, root: Node, l3_enabled: bool) -> bool:
    """An interface's admin state by NX-OS's defaults (netcfg/lab/nxos/factory.py): its own
    `shutdown`/`no shutdown`, else loopbacks, port-channels and mgmt0 up; an L2 port (its
    `switchport`, or `system default switchport` without a mode line) up unless `system
    default switchport shutdown`; an L3 one as `l3_enabled` says (Nexus 9000: down)."""
    lines = {_norm(c.line) for c in node.children}
    if "shutdown" in lines or "no shutdown" in lines:
        return "no shutdown" in lines
    name = node.tokens[1] if len(node.tokens) > 1 else ""
    if name.startswith(("loopback", "port-channel", "mgmt")):
        return True
    top = {_norm(c.line).lower() for c in root.children if c.mode is None}
    if "switchport" in lines:
        layer2 = True
    elif "no switchport" in lines or name.startswith("vlan"):
        layer2 = False
    else:
        layer2 = "system default switchport" in top
    if layer2:
        return "system default switchport shutdown" not in top
    return l3_enabled


def ordered(root: Node) -> Node:
    return Node("", root.mode, sorted(root.children, key=lambda n: section_key(n.line)))


def body(root: Node) -> list[str]:
    """Configuration lines, 2-space indented, a blank line before each top-level block."""
    out: list[str] = []
    for node in ordered(root).children:
        if node.mode is not None:
            out.append("")
        out.extend(render(Node("", root.mode, [node]), 2, bang=False))
    return out


def show_running(root: Node, version: str, changed: float, now: float) -> str:
    head = ["", "!Command: show running-config",
            f"!Running configuration last done at: {_stamp(changed)}",
            f"!Time: {_stamp(now)}", "", f"version {version} Bios:version 05.47"]
    return "\n".join(head + body(root)) + "\n\n"


def checkpoint_text(root: Node, version: str, now: float) -> str:
    """What `checkpoint` saves: the running configuration with a checkpoint header."""
    head = ["!Command: Checkpoint cmd vdc 1", f"!Time: {_stamp(now)}", "",
            f"version {version} Bios:version 05.47"]
    return "\n".join(head + body(root)) + "\n"


def _stamp(t: float) -> str:
    return time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(t))


def _without_version(root: Node) -> list[Node]:
    return [c for c in root.children if c.tokens[:1] != ["version"]]


def rollback_patch(src: Node, dst: Node) -> list[str]:
    """The commands that turn `src` into `dst`, as `show diff rollback-patch` lists them:
    removals (`no ...`) first, then additions, each under its parent's mode line."""
    out: list[str] = []
    _patch(_without_version(src), _without_version(dst), 0, out)
    return out


def _patch(src: list[Node], dst: list[Node], depth: int, out: list[str]) -> None:
    pad = "  " * depth
    theirs = {_norm(n.line): n for n in dst}
    mine = {_norm(n.line): n for n in src}
    for node in src:
        key = _norm(node.line)
        if key in theirs:
            continue
        if node.mode == "if" and node.tokens[1].startswith(("ethernet", "mgmt")):
            sub: list[str] = []  # physical: cannot be removed, its settings are
            _patch(node.children, [], depth + 1, sub)
            if sub:
                out.append(pad + node.line)
                out.extend(sub)
        elif node.line.lower().startswith("no "):
            out.append(pad + node.line[3:].strip())
        else:
            out.append(f"{pad}no {node.line}")
    for node in sorted(dst, key=lambda n: section_key(n.line)) if depth == 0 else dst:
        key = _norm(node.line)
        old = mine.get(key)
        if old is None:
            out.append(pad + node.line)
            out.extend("  " * (depth + 1) + line
                       for line in render(Node("", node.mode, node.children), 2, bang=False))
        elif node.mode is not None:
            sub = []
            _patch(old.children, node.children, depth + 1, sub)
            if sub:
                out.append(pad + node.line)
                out.extend(sub)
