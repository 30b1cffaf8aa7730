"""A lab serving real devices of the multivendor inventory, and the deploy targets and desired
configs pointing at it, as `netcfg push --connect` would build them."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import yaml

from netcfg.deploy.desired import desired_configs
from netcfg.deploy.engine import Desired
from netcfg.deploy.targets import Target, from_devices_file, select
from netcfg.lab import DeviceSpec, Lab
from netcfg.lab.nxos.emulator import factory_config
from netcfg.lab.truth import vendor_options
from netcfg.validate import Validation, validate

ROOT = Path(__file__).resolve().parents[2]
MULTIVENDOR = ROOT / "inventories" / "multivendor"
#: the vendors' own data (absent outside CI: the emulators then keep only their own checks)
SHARED = ROOT.parent / "shared" if (ROOT.parent / "shared").is_dir() else None
#: one device per NOS the deploy layer is tested on
BY_NOS = {"eos": "leaf-su1-r1", "junos": "core1", "sonic": "leaf-su2-r1",
          "cumulus": "leaf-su2-r5", "nxos": "spine-pod1-1"}
#: distinctive, so a test can grep every output for it
PASSWORD = "Lab-Pa55-9f3e1c"


@lru_cache(maxsize=1)
def multivendor() -> Validation:
    return validate(MULTIVENDOR)


#: how the multivendor inventory's NX-OS spines (N9364E-SG2, 24 of whose 64 cages run
#: 2 x 400G) are split while in service; a switch fresh from the factory splits nothing, and
#: the push that adds the line reloads the module (tests/deploy/test_disruptive.py)
NXOS_BREAKOUT = "interface breakout module 1 port 1-24 map 400g-2x"


def in_service(name: str, username: str = "netops") -> str:
    """The startup config of an NX-OS spine already in service: the factory's (the vendor's
    where ../shared is present), with its cages split."""
    factory = vendor_options(SHARED).get("factory_dir")
    return factory_config(name, username, factory) + NXOS_BREAKOUT + "\n"


def specs(names: list[str], password: str = PASSWORD, factory: bool = False
          ) -> list[DeviceSpec]:
    """Lab devices for `names` of the multivendor inventory; NX-OS spines in service (their
    cages split) and SONiC switches in service (their SKU's buffers) unless `factory`."""
    result = multivendor()
    fabric = result.fabric
    assert fabric is not None
    out = []
    for name in names:
        dev = fabric.devices[name]
        nos = fabric.platform(dev).nos
        startup = in_service(name) if nos == "nxos" and not factory else ""
        # a SONiC switch in service has its SKU's buffers (`config qos reload` once)
        service = {"qos_reload": True} if nos == "sonic" and not factory else {}
        out.append(DeviceSpec(name, nos, username="netops",
                              password=password, interfaces=[p.name for p in dev.ports],
                              model=fabric.platform(dev).model,
                              options=vendor_options(SHARED) | service,
                              startup_config=startup))
    return out


def devices_file(lab: Lab, directory: Path) -> Path:
    path = directory / "lab-devices.yaml"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        yaml.safe_dump(lab.inventory(), fh)
    return path


@dataclass
class Fleet:
    targets: list[Target]
    desired: dict[str, Desired]

    def target(self, name: str) -> Target:
        return next(t for t in self.targets if t.name == name)


def fleet(lab: Lab, names: list[str], directory: Path) -> Fleet:
    result = multivendor()
    assert result.fabric is not None and result.physics is not None
    chosen = select(result.fabric, tuple(names))
    targets = from_devices_file(result.fabric, chosen, devices_file(lab, directory))
    return Fleet(targets, desired_configs(result.fabric, result.physics, chosen))


def lying(desired: Desired) -> Desired:
    """The same config, but intent facts it cannot satisfy (a device that silently ignored a
    line looks like this to the post-check)."""
    assert desired.facts is not None
    facts = replace(desired.facts, lossless_priorities=(3, 4))
    return Desired(desired.text, facts, desired.reader)


def desired_with(directory: Path, name: str, extra: str) -> Desired:
    """The desired config of device `name` of the multivendor inventory with `extra` YAML
    appended to its fabric.yaml (new top-level sections), rendered as push would."""
    inventory = directory / f"inventory-{len(list(directory.glob('inventory-*')))}"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text((MULTIVENDOR / "fabric.yaml").read_text() + extra)
    v = validate(inventory)
    assert v.fabric is not None and v.physics is not None, [f.text() for f in v.findings]
    return desired_configs(v.fabric, v.physics, select(v.fabric, (name,)))[name]
