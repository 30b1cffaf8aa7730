"""What an Arista EOS switch runs before netcfg touches it, and the BGP default it applies,
read from the vendor material (the vendor-data folder's `factory/` part, `factory_dir`).

* The factory configuration comes from factory/eos/captures/napalm__eos_mock_data__show_
  running_config.txt, the one `show startup-config` of a switch nobody configured for a task
  in that folder (a vEOS 4.15 box; factory/eos/README.md). Its lines stay as EOS printed them
  (`transceiver qsfp default-mode 4x10G`, `spanning-tree mode mstp`, `no ip routing`), except
  what the box itself configured, each left out for its reason: its logins and AAA lines and
  `aaa root secret` (the lab login takes their place, as a switch's first login does),
  `management api http-commands` and Management1's address (the README: present only because
  the box configures them), and the `event-handler` that runs the box's own flash script. Its
  example Ethernet ports give way to the device's own ports. The day-0 bootstrap an operator
  gives a switch before NAPALM can reach it is added: the lab login and `management api
  http-commands` / `no shutdown` (eAPI, NAPALM's eos transport).
* What `rollback clean-config` leaves (the start of every NAPALM replace) is the same factory
  configuration without the bootstrap.
* The per-session BGP prefix limit where a config states none is read from
  factory/eos/captures/batfish__arista_bgp_show_run_all_2, a `show running-config all` of EOS
  4.22.3M: a peer group with no limit configured prints `neighbor <group> maximum-routes
  12000` (DEFAULTS.md, "observed").

Without the folder the emulator keeps its own minimal factory (hostname, the bootstrap, the
ports) and EOS's 12,000 (kept here for a lab without the vendor folder), and says so
(`Factory.source`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: the factory part's EOS files
STARTUP = Path("eos") / "captures" / "napalm__eos_mock_data__show_running_config.txt"
BGP_ALL = Path("eos") / "captures" / "batfish__arista_bgp_show_run_all_2"

#: top-level statements of the capture that the box configured, not the factory (module
#: docstring): first words -> why
BOX_LINES = {
    "username": "the box's logins",
    "aaa": "the box's AAA and root secret",
    "management api": "eAPI, enabled by the box (README)",
    "event-handler": "runs the box's own flash script",
}
#: built-in default for a lab without the vendor folder (the capture above prints it)
BUILT_IN_MAXIMUM_ROUTES = 12000


class FactoryError(Exception):
    """The vendor material is not what the lab reads (a file or line missing)."""


@dataclass(frozen=True)
class Factory:
    """A switch's factory configuration, what `rollback clean-config` leaves, and the BGP
    default it runs under."""

    config: str
    #: the factory lines without the day-0 bootstrap (ports are added by the emulator)
    clean: tuple[str, ...]
    #: prefixes a BGP session may carry where no `maximum-routes` is configured
    maximum_routes: int
    #: where all of it came from (the vendor files, or the emulator's built-in minimum)
    source: str


def _bootstrap(name: str, username: str, secret: str) -> list[str]:
    return [f"hostname {name}",
            f"username {username} privilege 15 role network-admin secret sha512 {secret}",
            "management api http-commands", "   no shutdown"]


def _ports(interfaces: list[str]) -> list[str]:
    return [line for port in interfaces for line in (f"interface {port}", "!")]


def built_in(name: str, username: str, secret: str, interfaces: list[str]) -> Factory:
    """The emulator's own minimal factory: what netcfg needs to reach it."""
    lines = _bootstrap(name, username, secret) + ["!"] + _ports(interfaces)
    return Factory("\n".join(lines) + "\n", (), BUILT_IN_MAXIMUM_ROUTES,
                   "built-in minimal factory (no vendor factory folder given)")


def _statements(text: str) -> list[list[str]]:
    """Top-level statements (first line and its indented lines), comments and `end` left
    out."""
    out: list[list[str]] = []
    for line in text.splitlines():
        if not line.strip() or line.strip().startswith("!") or line.strip() == "end":
            continue
        if line[0] == " " and out:
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _box_made(first: str) -> bool:
    return any(first == w or first.startswith(w + " ") for w in BOX_LINES)


def default_maximum_routes(folder: Path) -> int:
    """The limit `show running-config all` prints for a peer group that configures none."""
    try:
        text = (folder / BGP_ALL).read_text()
    except OSError as exc:
        raise FactoryError(f"{folder / BGP_ALL}: {exc}") from None
    found = {int(n) for n in re.findall(r"^\s+neighbor \S+ maximum-routes (\d+)\s*$", text,
                                         re.M)}
    if len(found) != 1:
        raise FactoryError(f"{folder / BGP_ALL}: expected one default maximum-routes, found "
                           f"{sorted(found) or 'none'}")
    return found.pop()


def from_vendor(factory_dir: str | Path, name: str, username: str, secret: str,
                interfaces: list[str]) -> Factory:
    """The vendor factory configuration adapted to this lab device (module docstring)."""
    folder = Path(factory_dir)
    try:
        text = (folder / STARTUP).read_text()
    except OSError as exc:
        raise FactoryError(f"{folder / STARTUP}: {exc}") from None
    clean: list[str] = []
    for block in _statements(text):
        first = block[0].strip()
        if _box_made(first):
            continue
        if first.startswith("interface "):
            continue  # the capture's ports give way to the device's own (Management1 too)
        clean += block
    if "no ip routing" not in clean:
        raise FactoryError(f"{folder / STARTUP}: no `no ip routing` line (the factory state "
                           "the lab boots from)")
    lines = _bootstrap(name, username, secret) + clean + ["!"] + _ports(interfaces)
    return Factory("\n".join(lines) + "\n", tuple(clean), default_maximum_routes(folder),
                   f"vendor factory {STARTUP} (vEOS 4.15 `show startup-config`, box lines "
                   f"left out) and {BGP_ALL.name}")
