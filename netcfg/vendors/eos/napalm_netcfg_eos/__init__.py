"""Installed as the top-level package `napalm_netcfg_eos`, so that plain NAPALM code finds
NAPALM's EOS driver with the device's own sections kept in a replace:
`napalm.get_network_driver("netcfg_eos")` (netcfg/deploy/drivers/keeping.py)."""

from napalm import eos as _napalm_eos

from netcfg.deploy.drivers.keeping import KeepDeviceLocal


class EOSDriver(KeepDeviceLocal, _napalm_eos.EOSDriver):
    nos = "eos"


__all__ = ["EOSDriver"]
