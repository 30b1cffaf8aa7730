"""Installed as the top-level package `napalm_netcfg_nxos`, so that plain NAPALM code finds
NAPALM's NX-OS driver with the device's own sections kept in a replace:
`napalm.get_network_driver("netcfg_nxos")` (netcfg/deploy/drivers/keeping.py)."""

from napalm import nxos as _napalm_nxos

from netcfg.deploy.drivers.keeping import KeepDeviceLocal


class NXOSDriver(KeepDeviceLocal, _napalm_nxos.NXOSDriver):
    nos = "nxos"


__all__ = ["NXOSDriver"]
