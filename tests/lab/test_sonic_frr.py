"""The FRR text the SONiC lab serves (`show runningconfiguration all`, key `bgpraw`) heads
with what SONiC's FRR runs: `frr version 8.5.4` (SONiC 202405: sonic-net/SONiC issues 1537,
1565) and `frr defaults traditional`.

Expected values are written by hand from the sources docs/lab-sonic.md ("FRR") quotes: FRR
prints its profile in every `show running-config` (FRRouting/frr lib/command.c); SONiC's own
templates set none (read here from ../shared/sonic-skus); SONiC starts bgpd and zebra without
`-F` and builds FRR without `--enable-datacenter`, so FRR's configure default
(`DFLT_NAME="traditional"`) holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from netcfg.lab import DeviceSpec
from netcfg.lab.sonic.shell import run_show

FRR_TEMPLATES = (Path(__file__).resolve().parents[3] / "shared" / "sonic-skus"
                 / "sonic-buildimage" / "dockers" / "docker-fpm-frr" / "frr")


def test_sonic_templates_set_no_frr_defaults_profile():
    if not FRR_TEMPLATES.is_dir():
        pytest.skip("../shared/sonic-skus (SONiC's FRR templates) is not here")
    templates = sorted(FRR_TEMPLATES.rglob("*.j2"))
    assert {"frr.conf.j2", "bgpd.conf.j2", "daemons.common.conf.j2"} <= {
        t.name for t in templates}
    assert not [t for t in templates if "frr defaults" in t.read_text()]


def test_the_lab_prints_the_version_and_profile_sonic_runs(make_lab):
    """What the switch's shell answers to `show runningconfiguration all`."""
    lab = make_lab(DeviceSpec("leaf1", "sonic", interfaces=["Ethernet0"]))
    db = json.loads(lab["leaf1"].do(lambda emu: run_show(emu, ["runningconfiguration", "all"])))
    head = db["bgpraw"].splitlines()[:7]
    assert head == ["Building configuration...", "", "Current configuration:", "!",
                    "frr version 8.5.4", "frr defaults traditional", "hostname leaf1"]
