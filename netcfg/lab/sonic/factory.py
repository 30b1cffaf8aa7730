"""What a SONiC switch runs before netcfg touches it: SONiC's own first-boot CONFIG_DB per SKU.

Read from the vendor-data folder's `factory/sonic/<SKU>/configdb_after_first_boot.json`
(`DeviceSpec.options["factory_dir"]`, netcfg/lab/truth.py): the CONFIG_DB a freshly installed
image makes by itself (`config-setup` -> `sonic-cfggen -H -k <SKU> --preset t1`, `config
reload`, db_migrator, swss start, featured, hostcfgd), generated with SONiC's own code. Such a
box has the platform's default SKU (`device/<platform>/default_sku`: ACS-SN5600 on the SN5600,
Arista-7060X6-64PE on the 7060X6, both 64 x 800G), that build's buffer model (dynamic on
Mellanox, traditional on Broadcom; db_migrator makes Mellanox-SN5600-V256 traditional), no
BUFFER_* table, no MGMT_INTERFACE (eth0 runs DHCP) and every port up with a t1 preset /31 and
BGP neighbour. Another SKU is booted only when the device is told it (`options["hwsku"]`, or an
interface list that only that SKU's ports cover: a switch installed with that SKU).

`config qos reload` renders the SKU's buffer and QoS templates on top (`qos_buffers.<model>.json`
beside the factory file: `dynamic` on Mellanox, which also sets `buffer_model dynamic`,
`traditional` elsewhere), and `config reload` merges `/etc/sonic/init_cfg.json`
(`factory/sonic/init_cfg/<asic>/init_cfg.json`) under the saved file (DEFAULTS.md).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the DeviceSpec model (the catalog's `model`) -> (device directory, platform_asic,
#: default_sku's first word). The device tree's own `default_sku` is read where present.
PLATFORMS: dict[str, tuple[str, str, str]] = {
    "SN5600": ("mellanox/x86_64-nvidia_sn5600-r0", "mellanox", "ACS-SN5600"),
    "DCS-7060X6-64PE": ("arista/x86_64-arista_7060x6_64pe", "broadcom", "Arista-7060X6-64PE"),
}
#: file names under factory/sonic/<SKU>/
FIRST_BOOT = "configdb_after_first_boot.json"


@dataclass(frozen=True)
class Factory:
    """One platform's factory data: where its SKUs' files are, and which SKU it boots."""

    folder: Path | None  # factory/sonic, None without the vendor-data folder
    model: str
    directory: str
    asic: str
    default_sku: str

    @classmethod
    def of(cls, model: str, options: dict[str, Any]) -> Factory:
        directory, asic, sku = PLATFORMS.get(model or "SN5600", PLATFORMS["SN5600"])
        skus = options.get("sku_dir")
        if skus and (Path(skus) / directory / "default_sku").is_file():
            sku = (Path(skus) / directory / "default_sku").read_text().split()[0]
        root = options.get("factory_dir")
        folder = Path(root) / "sonic" if root and (Path(root) / "sonic").is_dir() else None
        return cls(folder, model or "SN5600", directory, asic, sku)

    def skus(self) -> list[str]:
        """The SKUs of this platform the factory folder has a first-boot file for."""
        if self.folder is None:
            return []
        return sorted(p.parent.name for p in self.folder.glob(f"*/{FIRST_BOOT}")
                      if _platform_of(p) == self.directory.split("/")[1])

    def choose(self, told: str, interfaces: list[str]) -> str:
        """The SKU the switch boots: the one it is told, else the default SKU when it has
        every interface named (or none is named), else the platform's SKU with the fewest
        ports (the coarsest split) that has every interface named."""
        if told:
            return told
        if not interfaces or self.folder is None:
            return self.default_sku
        wanted = set(interfaces)
        default = self.folder / self.default_sku / FIRST_BOOT
        if default.is_file() and wanted <= set(_load(default).get("PORT", {})):
            return self.default_sku
        covering = [(len(ports), sku) for sku in self.skus()
                    if wanted <= (ports := set(_load(self.folder / sku / FIRST_BOOT)
                                               .get("PORT", {})))]
        return min(covering)[1] if covering else self.default_sku

    def first_boot(self, sku: str) -> dict[str, Any] | None:
        """The SKU's CONFIG_DB after first boot, or None without the file."""
        if self.folder is None or not (self.folder / sku / FIRST_BOOT).is_file():
            return None
        return copy.deepcopy(_load(self.folder / sku / FIRST_BOOT))

    def qos_reload(self, sku: str) -> tuple[str, dict[str, Any]] | None:
        """(buffer model, tables) `config qos reload` writes for the SKU: the dynamic
        templates on Mellanox (sonic-utilities config/main.py: dynamic unless
        --no-dynamic-buffer), the traditional ones elsewhere; None without the file."""
        model = "dynamic" if self.asic == "mellanox" else "traditional"
        if self.folder is None:
            return None
        path = self.folder / sku / f"qos_buffers.{model}.json"
        if not path.is_file():
            return None
        return model, copy.deepcopy(_load(path))

    def init_cfg(self) -> dict[str, Any]:
        """/etc/sonic/init_cfg.json of the build (empty without the folder)."""
        if self.folder is None:
            return {}
        path = self.folder / "init_cfg" / self.asic / "init_cfg.json"
        return copy.deepcopy(_load(path)) if path.is_file() else {}

    def boot_model(self, sku: str) -> str:
        """The buffer model a first boot leaves (db_migrator's MellanoxBufferMigrator keeps
        `dynamic` unless a `Mellanox-` SKU is not in its dynamic list)."""
        if self.asic != "mellanox":
            return "traditional"
        return "traditional" if sku.startswith("Mellanox-") and sku not in DYNAMIC_SKUS \
            else "dynamic"


#: mellanox_buffer_migrator.py `dynamic_model_skus` (sonic-utilities 691b1bb)
DYNAMIC_SKUS = frozenset({"Mellanox-SN5600-O128"})


def _platform_of(path: Path) -> str:
    meta = _load(path).get("DEVICE_METADATA", {}).get("localhost", {})
    return str(meta.get("platform", ""))


_CACHE: dict[Path, dict[str, Any]] = {}


def _load(path: Path) -> dict[str, Any]:
    """A factory file, parsed once per process (every emulated switch reads one)."""
    if path not in _CACHE:
        _CACHE[path] = json.loads(path.read_text())
    return _CACHE[path]


def merge_under(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` merged over `base`, entry by entry (sonic-cfggen `-j base -j over`: deep_update)."""
    out = copy.deepcopy(base)
    for table, entries in over.items():
        if not isinstance(entries, dict):
            continue
        into = out.setdefault(table, {})
        for key, fields in entries.items():
            if isinstance(fields, dict) and isinstance(into.get(key), dict):
                into[key] = {**into[key], **copy.deepcopy(fields)}
            else:
                into[key] = copy.deepcopy(fields)
    return out
