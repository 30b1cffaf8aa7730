"""raw_config through a real push: each NOS's lab takes a site's line that its own syntax (the
lab's grammar, Juniper's YANG, SONiC's models, NVUE's schema) accepts and keeps it, and
refuses one it does not know, leaving the device at its old config."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from netcfg.deploy.engine import Desired, Options, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, desired_with, fleet, specs

OPTS = Options(timeout=20, revert_in=300)

#: NOS -> (a raw entry the switch accepts, what its running config then shows, one it refuses)
CASES = {
    "eos": ("lines: |\n      logging host 10.9.0.5\n", "logging host 10.9.0.5",
            "lines: |\n      logging frobnicate 7\n"),
    "nxos": ("lines: |\n      logging server 10.9.0.5 5 use-vrf management\n",
             "logging server 10.9.0.5 5 use-vrf management",
             "lines: |\n      logging frobnicate 7\n"),
    "junos": ("lines: |\n      system {\n          syslog {\n              host 10.9.0.5 {\n"
              "                  any warning;\n              }\n          }\n      }\n",
              "host 10.9.0.5", "lines: |\n      system {\n          frobnicate 7;\n      }\n"),
    "sonic": ("merge:\n      FLEX_COUNTER_TABLE:\n        PFCWD: {FLEX_COUNTER_STATUS: enable}\n",
              '"FLEX_COUNTER_STATUS": "enable"',
              "merge:\n      NO_SUCH_TABLE:\n        x: {a: b}\n"),
    "cumulus": ("merge:\n      system:\n        message: {pre-login: authorised use only}\n",
                "authorised use only", "merge:\n      system:\n        frobnicate: 7\n"),
}


def _desired(tmp_path: Path, nos: str, *entries: str) -> Desired:
    raw = "".join(f"  - nos: {nos}\n    {entry}" for entry in entries)
    return desired_with(tmp_path, BY_NOS[nos], "\nraw_config:\n" + raw)


def _lines(config: str) -> list[str]:
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and not line.lstrip().startswith(("!", "#", "## Last"))]


@pytest.mark.parametrize("nos", sorted(CASES))
def test_a_raw_line_the_switch_knows_is_pushed_and_one_it_does_not_is_refused(
        nos, make_lab, tmp_path):
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    target = fleet(lab, [name], tmp_path).targets[0]
    good, shown, bad = CASES[nos]

    pushed = push_device(target, _desired(tmp_path, nos, good), Run(tmp_path / "one"), OPTS,
                         threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    assert shown in running
    if nos == "sonic":  # and in the table the entry named
        assert json.loads(running)["FLEX_COUNTER_TABLE"]["PFCWD"] == {
            "FLEX_COUNTER_STATUS": "enable"}

    # the good entry stays: only the line the switch does not know differs
    refused = push_device(target, _desired(tmp_path, nos, good, bad), Run(tmp_path / "two"),
                          OPTS, threading.Event())
    assert refused.status != "confirmed" and refused.error, refused
    assert _lines(lab[name].running_config()) == _lines(running)
