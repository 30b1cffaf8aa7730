"""Where the lab finds the vendors' own data it checks against, from one folder.

The emulators enforce what the vendor publishes, never what netcfg's renderer believes: the
SONiC emulator reads SONiC's YANG models, the platforms' SKU files and SONiC's own first-boot
CONFIG_DB, the Junos emulator
Juniper's configuration YANG (and Cumulus its release's NVUE spellings, from the catalog). One
folder laid out like the project's vendor data (`junos-yang/`, `sonic-yang/yang/`,
`sonic-skus/sonic-buildimage/device/`) gives every emulator its part; a part that is absent is
left out, and that emulator keeps only its own checks.
"""

from __future__ import annotations

from pathlib import Path

#: DeviceSpec option -> where it lives under the vendor-data folder
PARTS = {
    "junos_yang": Path("junos-yang"),
    "yang_dir": Path("sonic-yang") / "yang",
    "sku_dir": Path("sonic-skus") / "sonic-buildimage" / "device",
    # each NOS's factory configuration (factory/<nos>/): what a switch runs before netcfg
    "factory_dir": Path("factory"),
}


def vendor_options(folder: Path | None) -> dict[str, str]:
    """The DeviceSpec options for every part of `folder` that is present."""
    if folder is None:
        return {}
    return {option: str(folder / part) for option, part in PARTS.items()
            if (folder / part).is_dir()}
