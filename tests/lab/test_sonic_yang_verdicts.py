"""The SONiC lab's YANG check (netcfg/lab/sonic/yang.py) remembers the verdict on a CONFIG_DB it
has judged: the remembered answer must be the one SONiC's models give, and a database changed
in place (the same dict, new content) must be judged again, never answered from memory.

Outside truth: SONiC's first-boot CONFIG_DB of an SN5600 (../shared/factory/sonic, made by
SONiC's own tools) is valid; a WRED profile whose green minimum is above its maximum is
refused by sonic-wred-profile.yang's own `must` ("Green max threshold must be greater than or
equal to min threshold")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from netcfg.lab.sonic.schema import SchemaError
from netcfg.lab.sonic.yang import YangValidator

SHARED = Path(__file__).resolve().parents[3] / "shared"
SONIC_YANG = SHARED / "sonic-yang" / "yang"
FACTORY = SHARED / "factory" / "sonic" / "ACS-SN5600" / "configdb_after_first_boot.json"
REFUSED = "Green max threshold must be greater than or equal to min threshold"


def test_a_remembered_verdict_is_the_models_and_a_changed_database_is_judged_again():
    if not (SONIC_YANG.is_dir() and FACTORY.is_file()):
        pytest.skip("../shared/sonic-yang and ../shared/factory/sonic are not present "
                    "(CI provides them)")
    validator = YangValidator.from_options({"yang_dir": str(SONIC_YANG)})
    if validator is None:
        pytest.skip("the libyang binding (extra `yang`) is not installed")
    db = json.loads(FACTORY.read_text())
    validator.validate(db)
    validator.validate(db)  # the same again: still valid

    db["WRED_PROFILE"] = {"w": {"green_min_threshold": "200", "green_max_threshold": "100"}}
    for _ in range(2):  # judged, then answered from memory: the same refusal both times
        with pytest.raises(SchemaError, match=REFUSED):
            validator.validate(db)

    db["WRED_PROFILE"]["w"]["green_max_threshold"] = "300"  # the same dict, now valid
    validator.validate(db)
    db["WRED_PROFILE"]["w"]["green_min_threshold"] = "400"  # and invalid again
    with pytest.raises(SchemaError, match=REFUSED):
        validator.validate(db)
