"""NAPALM's own EOS, NX-OS and Junos drivers with the device's own sections kept in a replace.

NAPALM's `load_replace_candidate` replaces the whole configuration: a file netcfg rendered
holds no logins, AAA or root password (they are the device's: netcfg/deploy/preserve.py), so
plain NAPALM code (nornir_napalm's `napalm_configure(replace=True)`) loading it would lock
everyone out of an EOS or NX-OS switch and be refused by Junos. These subclasses, installed as
the NAPALM community drivers `netcfg_eos`, `netcfg_nxos` and `netcfg_junos`, read the running
configuration first and keep its device-local sections, as netcfg's SONiC and Cumulus drivers
do; everything else is NAPALM's own driver. `optional_args={"keep_device_local": False}`
loads the file as it is (netcfg's engine merges before loading and turns this off).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def tls_context(ca_file: str | None, verify: bool) -> Any:
    """The SSLContext pyeapi takes (NAPALM's EOS `context`), from plain values: a Nornir
    inventory's connection options then serialise (`Inventory.dict()`)."""
    import ssl

    if verify:
        return ssl.create_default_context(cafile=ca_file)
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


class KeepDeviceLocal:
    """Mixin before a NAPALM driver class; `nos` names the netcfg vendor whose deploy adapter
    knows the device-local sections (`DeployAdapter.keep_device_local`)."""

    nos: str = ""

    def __init__(self, hostname: str, username: str, password: str, timeout: int = 60,
                 optional_args: dict[str, Any] | None = None) -> None:
        args = dict(optional_args or {})
        self.keep_local = bool(args.pop("keep_device_local", True))
        tls = args.pop("tls", None)  # plain values in place of an SSLContext (docs/nornir.md)
        if isinstance(tls, dict) and "context" not in args:
            args["context"] = tls_context(tls.get("ca_file"), bool(tls.get("verify", True)))
        super().__init__(hostname, username, password, timeout=timeout,  # type: ignore[call-arg]
                         optional_args=args)

    def load_replace_candidate(self, filename: str | None = None,
                               config: str | None = None) -> None:
        if filename is not None:
            config = Path(filename).read_text(encoding="utf-8")
        if self.keep_local and config is not None:
            from netcfg.vendors import vendor

            running = self.get_config(retrieve="running")["running"]  # type: ignore[attr-defined]
            config = vendor(self.nos).deploy.keep_device_local(running, config)
        super().load_replace_candidate(config=config)  # type: ignore[misc]
