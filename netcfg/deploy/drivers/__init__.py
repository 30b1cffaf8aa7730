"""netcfg's own NAPALM drivers (subclasses of napalm's NetworkDriver, on netmiko) for NOSes
NAPALM does not ship: SONiC and NVIDIA Cumulus Linux (NVUE). Plain NAPALM code reaches them
as `napalm.get_network_driver("netcfg_sonic")` / `("netcfg_cumulus")`."""
