"""What a Cumulus Linux switch runs out of the box: NVIDIA's factory `startup.yaml`.

NVIDIA (Cumulus Linux 5.15 "NVUE CLI", Default Startup File): "NVUE provides a default
`/etc/nvue.d/startup.yaml` file that includes configuration such as the switch hostname,
default firewall rules, and `cumulus` user account credentials. The file also enables the
NVUE API. This file is the factory configuration file". The emulator boots from that file as
the vendor-data folder has it (`DeviceSpec.options["factory_dir"]`, `cumulus/` under it:
netcfg/lab/truth.py), never from netcfg's renderer. Without the folder it keeps a minimal
built-in copy of the sections NVIDIA's text names (hostname, eth0 by DHCP in VRF `mgmt`, the
two default control-plane ACLs, `system api`, the `cumulus` account) and says so
(`Factory.source`).

The folder's file is written in 5.14's words; a 5.15 switch stores the same configuration in
5.15's (NVIDIA's 5.15 change table, "New and Changed NVUE Commands": `interface <if> ip address
| ip vrf` -> `ipv4 address | vrf`, `service ntp|dns <vrf> ...` -> `system ntp|dns ...` with
`system ntp vrf <vrf>`; the 5.15 NVUE CLI page writes `system config auto-save state
enabled`), so `translate` moves those rows. Two things of a real first boot are the lab's:
the hostname is the device's name (the factory's is `cumulus`), and an operator's login other
than `cumulus` exists beside it (the account that provisioned the switch; NVIDIA's factory
file has only `cumulus`). The `cumulus` account's per-switch password hash, which the factory
file cannot hold, is a well-formed SHA-512 crypt placeholder.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from netcfg.lab.cumulus import config as cfg

#: the factory file in the vendor-data folder's factory/ part
FILE = Path("cumulus") / "startup.yaml.factory-reconstructed.yaml"
#: NVIDIA's default account (5.15 NVUE CLI, Default Startup File)
DEFAULT_USER = "cumulus"
#: a well-formed SHA-512 crypt hash: `$6$`, a salt, 86 characters of digest
LAB_HASH = "$6$netcfglab$" + "0" * 86

#: the sections NVIDIA's text names, in 5.14's words, where the folder is absent
BUILTIN: cfg.Tree = {
    "interface": {"eth0": {"type": "eth", "ip": {"address": {"dhcp": {}}, "vrf": "mgmt"}}},
    "system": {
        "hostname": "cumulus",
        "aaa": {"user": {DEFAULT_USER: {"full-name": "cumulus,,,",
                                        "hashed-password": LAB_HASH,
                                        "role": "system-admin"}}},
        "api": {"state": "enabled"},
        "control-plane": {"acl": {"acl-default-dos": {"inbound": {}},
                                  "acl-default-whitelist": {"inbound": {}}}},
    },
}


@dataclass(frozen=True)
class Factory:
    """The factory configuration the switch booted with, and where it came from."""

    tree: cfg.Tree
    source: str


def load(options: dict[str, Any]) -> Factory:
    """NVIDIA's factory file from the vendor-data folder, else the built-in minimum."""
    folder = options.get("factory_dir")
    path = Path(folder) / FILE if folder else None
    if path is not None and path.is_file():
        tree: cfg.Tree = {}
        cfg.apply_ops(tree, cfg.parse_document(path.read_text(encoding="utf-8")))
        return Factory(tree, f"NVIDIA's factory startup.yaml ({FILE})")
    return Factory(copy.deepcopy(BUILTIN), "the built-in minimal factory configuration (no "
                   "factory/cumulus in the vendor-data folder)")


def first_boot(factory: Factory, release: tuple[int, ...], hostname: str,
               username: str) -> cfg.Tree:
    """The factory tree in the release's words, named, with the login account (module
    docstring)."""
    tree = translate(copy.deepcopy(factory.tree), release)
    system = tree.setdefault("system", {})
    system["hostname"] = hostname
    users = system.setdefault("aaa", {}).setdefault("user", {})
    for body in users.values():
        if isinstance(body, dict) and not str(body.get("hashed-password", "")).startswith("$"):
            body["hashed-password"] = LAB_HASH  # the file's per-switch placeholder
    if username not in users:
        users[username] = {"hashed-password": LAB_HASH, "role": "system-admin"}
    return tree


def translate(tree: cfg.Tree, release: tuple[int, ...]) -> cfg.Tree:
    """5.14's words -> 5.15's for the rows of NVIDIA's 5.15 change table the factory file
    uses (module docstring); unchanged before 5.15."""
    if release < (5, 15):
        return tree
    for body in (tree.get("interface") or {}).values():
        ip = body.get("ip") if isinstance(body, dict) else None
        if not isinstance(ip, dict):
            continue
        if "address" in ip:
            body.setdefault("ipv4", {})["address"] = ip.pop("address")
        if "vrf" in ip:
            body["vrf"] = ip.pop("vrf")
        if not ip:
            del body["ip"]
    service = tree.get("service") or {}
    for name in ("ntp", "dns"):
        per_vrf = service.pop(name, None)
        if not per_vrf:
            continue
        [(vrf, body)] = list(per_vrf.items())[:1]
        moved = tree.setdefault("system", {}).setdefault(name, {})
        if name == "ntp":
            moved["vrf"] = vrf
            moved.update(body)
        else:  # 5.15: each server names its VRF
            moved["server"] = {s: {"vrf": vrf} for s in (body.get("server") or {})}
    if "service" in tree and not tree["service"]:
        del tree["service"]
    auto = ((tree.get("system") or {}).get("config") or {}).get("auto-save")
    if isinstance(auto, dict) and "enable" in auto:
        auto["state"] = "enabled" if auto.pop("enable") == "on" else "disabled"
    return tree


def management(tree: cfg.Tree, release: tuple[int, ...]) -> str | None:
    """Why the management port is out of reach with `tree` applied, None where it is not.

    The lab's listeners stand for eth0 in VRF `mgmt`, where NVIDIA's factory file puts it and
    the switch's SSH and NVUE API serve (the prompt says `:mgmt:`). An applied revision whose
    eth0 has no address (no static address, no `dhcp`) or is not in `mgmt` takes that away:
    nothing answers on the management address any more."""
    eth0 = (tree.get("interface") or {}).get("eth0")
    if not isinstance(eth0, dict):
        return "the applied configuration has no interface eth0 (no address, not in vrf mgmt)"
    family = eth0.get("ipv4" if release >= (5, 15) else "ip") or {}
    vrf = eth0.get("vrf") if release >= (5, 15) else family.get("vrf")
    if not family.get("address"):
        return "eth0 has no address (neither static nor dhcp)"
    if vrf != "mgmt":
        return f"eth0 left vrf mgmt (vrf {vrf or 'default'})"
    return None
