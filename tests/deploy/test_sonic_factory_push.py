"""A SONiC switch fresh from the factory through `netcfg push`: SONiC's first-boot CONFIG_DB
has no buffer pool and GCU never adds one (../shared/factory/DEFAULTS.md; sonic-utilities
gcu_field_operation_validators.conf.json), so the first push installs the SKU's pools with
`config qos reload`, which reprograms every port's buffers: refused unless the operator allows
it, then done once; the push after it has nothing disruptive left. A rollback keeps the pools
(GCU cannot remove them) and otherwise restores the factory's tables."""

from __future__ import annotations

import json
import threading

import pytest

from netcfg.deploy.engine import Options, diff_device, push_device, restore_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, SHARED, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
WHY = "installs the SKU's buffer pools and QoS with `config qos reload`"

pytestmark = pytest.mark.skipif(
    SHARED is None or not (SHARED / "factory" / "sonic").is_dir(),
    reason="SONiC factory files (../shared/factory) not present next to the repo")


def test_a_factory_sonic_switch_gets_its_pools_only_when_the_push_allows_it(make_lab,
                                                                           tmp_path):
    name = BY_NOS["sonic"]
    lab = make_lab(*specs([name], factory=True))
    f = fleet(lab, [name], tmp_path)
    target, desired = f.targets[0], f.desired[name]
    before = json.loads(lab[name].running_config())
    assert "BUFFER_POOL" not in before and before["DEVICE_METADATA"]["localhost"][
        "hostname"] == "sonic"

    drift = diff_device(target, desired, OPTS)
    assert drift.sections is not None and any(WHY in d for d in drift.sections.disruptive)
    run = Run(tmp_path / "state")
    refused = push_device(target, desired, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive")
    assert json.loads(lab[name].running_config()) == before

    allowed = push_device(target, desired, run, Options(timeout=20, revert_in=300,
                                                        allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    after = json.loads(lab[name].running_config())
    assert after["BUFFER_POOL"]["ingress_lossless_pool"]["xoff"] == "29423360"
    assert after["DEVICE_METADATA"]["localhost"]["buffer_model"] == "traditional"
    assert "FEATURE" in after and "BREAKOUT_CFG" in after  # first-boot tables kept
    again = push_device(target, desired, Run(tmp_path / "again"), OPTS, threading.Event())
    assert again.status == "unchanged", again

    backup = run.saved("backup", name)
    assert backup is not None
    restored = restore_device(target, backup, Run(tmp_path / "rollback"), OPTS)
    assert restored.status == "rolled-back", restored
    back = json.loads(lab[name].running_config())
    assert back["BUFFER_POOL"] == after["BUFFER_POOL"]
    assert {t: v for t, v in back.items() if not t.startswith("BUFFER_")} == \
        {t: v for t, v in before.items() if not t.startswith("BUFFER_")}
