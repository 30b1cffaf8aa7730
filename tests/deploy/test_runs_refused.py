"""`netcfg runs` of a push that refused its device (a section the intent does not manage
would go, or a disruptive change without --allow-disruptive): the journal leaves the device
`refused`, and the listing says so rather than "no device". The journal is the one such a
push writes (backed-up, then refused at stage removal), recorded here by hand."""

from __future__ import annotations

import json

from netcfg.deploy.runs import Run

from .cli_cases import netcfg
from .deploy_cases import MULTIVENDOR


def test_runs_names_a_refused_device(tmp_path):
    state = tmp_path / "state"
    run = Run(state, command="push")
    run.record("leaf-su1-r1", "backed-up")
    run.record("leaf-su1-r1", "refused", stage="removal", removes=["ntp server"])
    run.record("-", "stop", reason="1 device(s) failed, more than --max-failures 0")
    listed = netcfg("runs", str(MULTIVENDOR), "--state", str(state), "--format", "json",
                    check=0)
    [row] = json.loads(listed.stdout)["runs"]
    assert row["devices"] == {"refused": 1} and row["changed"] == []
    text = netcfg("runs", str(MULTIVENDOR), "--state", str(state), check=0).stdout
    assert text.rstrip().endswith("push: 1 refused; 0 changed")
