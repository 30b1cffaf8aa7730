"""Which emulator class serves which NOS. Classes are named by import path and imported on
first use, so listing the registry costs nothing and a new NOS is one line here (or one
`register()` call from outside)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from netcfg.lab.device import Emulator

_EMULATORS: dict[str, str] = {
    "eos": "netcfg.lab.eos.emulator:EosEmulator",
    "junos": "netcfg.lab.junos.emulator:JunosEmulator",
    "nxos": "netcfg.lab.nxos.emulator:NxosEmulator",
    "cumulus": "netcfg.lab.cumulus.emulator:CumulusEmulator",
    "sonic": "netcfg.lab.sonic.emulator:SonicEmulator",
}


def register(nos: str, target: str) -> None:
    """Serve `nos` with the class at `target` ("package.module:Class")."""
    _EMULATORS[nos] = target


def supported() -> tuple[str, ...]:
    return tuple(sorted(_EMULATORS))


def emulator_class(nos: str) -> type[Emulator]:
    target = _EMULATORS.get(nos)
    if target is None:
        raise KeyError(f"no emulator for NOS {nos!r}; the lab serves: {', '.join(supported())}")
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
