"""The last line of a stopped push says "rolled back" only where a device was rolled back."""

from __future__ import annotations

from .cli_cases import netcfg
from .deploy_cases import BY_NOS, MULTIVENDOR, devices_file, specs


def test_a_push_stopped_at_its_canary_says_it_undid_nothing(make_lab, tmp_path):
    """The canary's commit fails with --max-failures 0: the run stops before any other switch,
    nothing was confirmed, so nothing is rolled back and the line does not claim it."""
    names = sorted([BY_NOS["eos"], BY_NOS["junos"]])
    lab = make_lab(*specs(names))
    lab[names[0]].inject("commit_error", message="Error: TCAM exhausted")
    args = [str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)), "--state",
            str(tmp_path / "state"), "--canary", "1", "--max-failures", "0"]
    for name in names:
        args += ["--device", name]
    out = netcfg("push", *args, check=4).stdout
    last = out.strip().splitlines()[-1]
    assert last.endswith("; stopped"), out
    assert "rolled back" not in last and f"not started: {names[1]}" in out
