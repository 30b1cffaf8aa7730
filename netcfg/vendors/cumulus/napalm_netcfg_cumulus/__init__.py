"""Installed as the top-level package `napalm_netcfg_cumulus`, so that plain NAPALM code finds
netcfg's Cumulus NVUE driver: `napalm.get_network_driver("netcfg_cumulus")`."""

from netcfg.vendors.cumulus.driver import CumulusDriver

__all__ = ["CumulusDriver"]
