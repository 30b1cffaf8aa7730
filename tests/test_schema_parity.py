"""`netcfg schema` says as much as a JSON Schema can: every bundled inventory passes it, and of
the bad-intent corpus it refuses every case whose mistake a schema can express (a value out of
range, an unknown unit, platform or NIC, a bad name or free text, a mode without its weight),
so an editor flags them while typing. What it accepts are the mistakes only `validate` can see:
duplicate keys and merge keys (the YAML reader's), relations between fields and values of
other sections, and the topology and catalog arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from netcfg.intent.schema import intent_schema

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bad_intents"

#: corpus cases no JSON Schema can refuse, each with why
BEYOND_A_SCHEMA = {
    "02-duplicate-top-level-key": "a YAML reader's matter: the document parses to one value",
    "03-duplicate-nested-key": "as above",
    "05-merge-key": "as above",
    "25-dscp-in-two-classes": "a value unique across sibling objects",
    "26-dscp-twice-in-class": "uniqueness would refuse the error at the wrong place; kept in "
                              "validate for its message",
    "27-traffic-class-shared": "a value unique across sibling objects",
    "28-lossless-class-without-pfc": "a relation between two sections",
    "29-pfc-priority-without-lossless-class": "a relation between two sections",
    "30-ets-weights-not-100": "a sum over sibling objects",
    "35-too-many-lossless-classes": "the catalog's ASIC limits for the chosen platform",
    "40-prefix-host-bits-set": "prefix arithmetic",
    "41-address-pool-too-small": "address arithmetic over the topology",
    "42-leaf-ports-exceeded": "port arithmetic over the topology and catalog",
    "43-speed-platform-lacks": "the catalog's ports of the chosen platform",
    "44-nic-speed-mismatch": "the catalog's speeds of the chosen NIC",
    "45-uplinks-not-divisible-by-spines": "arithmetic between fields",
    "46-planes-exceed-nic-ports": "the catalog's ports of the chosen NIC",
    "47-three-tier-missing-cores": "kept with its own message (SCH002) in validate",
    "48-cores-not-multiple-of-spines": "arithmetic between fields",
    "49-two-tier-with-cores": "kept with its own message in validate",
    "54-default-class-undefined": "a reference to a key of another mapping",
    "56-missing-spine-platform": "depends on which roles the topology has",
    "58-naming-unknown-placeholder": "a template's placeholders per role",
    "60-explicit-link-undefined-device": "a reference to a key of another mapping",
    "62-explicit-no-link-defaults-undefined-device": "as above",
    "63-explicit-speed-platform-lacks": "the catalog's ports of the chosen platform",
    "64-explicit-link-to-itself": "two values of one list compared",
    "65-device-in-both-files": "spans two files",
    "66-devices-yaml-unknown-device": "devices.yaml, checked against the built fabric",
    "67-devices-yaml-foreign-section": "devices.yaml's own shape",
    "68-credentials-undefined": "devices.yaml, a reference into fabric.yaml",
    "69-credential-without-password-source": "kept with its own message in validate",
    "70-deadlock-failure-no-such-link": "a reference into the built topology",
    "71-deadlock-failure-unknown-device": "a reference into the built topology",
    "86-dateline-channel-without-a-link": "a reference into the built topology",
    "89-leaves-not-whole-scalable-units": "arithmetic between fields",
    "90-mtu-and-l3-mtu-disagree": "arithmetic between fields",
    "91-l3-mtu-above-what-eos-states": "the NOS of the chosen platform and its MTU conversion",
    "72-override-unknown-device": "a reference into the built topology",
    "75-port-override-unknown-interface": "a reference into the built topology",
    "77-unknown-nos-release": "the catalog's releases per NOS",
    "78-shared-headroom-pool-on-cumulus": "the NOS of the chosen platform",
    "79-raw-config-leaves-configuration-mode": "the NOS's own syntax inside raw lines",
    "80-raw-config-junos-closes-a-block-of-netcfg": "Junos syntax inside raw lines",
}


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = intent_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _fabric(case: Path) -> object:
    return yaml.safe_load((case / "fabric.yaml").read_text(encoding="utf-8"))


def test_every_bundled_inventory_passes_the_schema(validator):
    for fabric in sorted((ROOT / "inventories").glob("*/fabric.yaml")):
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(fabric.read_text()))]
        assert not errors, (fabric.parent.name, errors[:3])


def test_the_schema_refuses_every_corpus_mistake_a_schema_can_express(validator):
    accepted = set()
    for case in sorted(p for p in CORPUS.iterdir() if (p / "fabric.yaml").is_file()):
        try:
            data = _fabric(case)
        except (yaml.YAMLError, RecursionError):
            continue  # not YAML, or a nesting bomb: the editor's YAML support says so
        if isinstance(data, dict) and not list(validator.iter_errors(data)):
            accepted.add(case.name)
    # equal, not a subset: a case the schema learns to refuse moves out of the list
    assert accepted == set(BEYOND_A_SCHEMA), sorted(accepted ^ set(BEYOND_A_SCHEMA))


def test_platform_and_nic_names_complete_from_the_catalog(validator):
    schema = json.dumps(intent_schema())
    assert "x-netcfg-catalog" not in schema
    assert '"nvidia-sn5600-cumulus"' in schema and '"connectx-7"' in schema


def test_the_devices_file_has_a_schema_of_its_own():
    from netcfg.intent.schema import devices_schema

    schema = devices_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    check = jsonschema.Draft202012Validator(schema)
    for devices in sorted((ROOT / "inventories").glob("*/devices.yaml")):
        errors = [e.message for e in check.iter_errors(yaml.safe_load(devices.read_text()))]
        assert not errors, (devices.parent.name, errors[:3])
    foreign = CORPUS / "67-devices-yaml-foreign-section" / "devices.yaml"
    assert list(check.iter_errors(yaml.safe_load(foreign.read_text())))
