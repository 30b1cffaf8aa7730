"""Installed as the top-level package `napalm_netcfg_junos`, so that plain NAPALM code finds
NAPALM's Junos driver with the device's own sections kept in a replace:
`napalm.get_network_driver("netcfg_junos")` (netcfg/deploy/drivers/keeping.py)."""

from napalm import junos as _napalm_junos

from netcfg.deploy.drivers.keeping import KeepDeviceLocal


class JunOSDriver(KeepDeviceLocal, _napalm_junos.JunOSDriver):
    nos = "junos"


__all__ = ["JunOSDriver"]
