"""FRR has no NAPALM driver netcfg trusts (napalm core ships none): `netcfg push` refuses an
FRR device in one line, and the rendered frr.conf is installed by the host's own tooling
(`vtysh -f`, frr-reload.py)."""

from __future__ import annotations

from netcfg.vendors.base import DeployAdapter


class FrrDeploy(DeployAdapter):
    napalm_driver = ""
    default_port = 22
    protocol = "ssh"
