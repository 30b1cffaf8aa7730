"""Installed as the top-level package `napalm_netcfg_sonic`, so that plain NAPALM code finds
netcfg's SONiC driver: `napalm.get_network_driver("netcfg_sonic")`."""

from netcfg.vendors.sonic.driver import SonicDriver

__all__ = ["SonicDriver"]
