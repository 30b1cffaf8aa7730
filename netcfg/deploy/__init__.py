"""Deploying rendered configs: diff, push with commit-confirm, rollback, through NAPALM
drivers (NAPALM's eos, nxos, junos and netcfg's own SONiC and Cumulus NVUE drivers)."""
