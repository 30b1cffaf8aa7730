"""management.gateway: the default route of each switch's management VRF, in each NOS's own
form, kept apart from the fabric's routes; checked by SONiC's YANG and the lab's grammars and
NVUE schema. Addresses are counted by hand from the multivendor intent
(addressing.management 198.51.100.0/24, 32 switches)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from render_cases import INVENTORIES, check_junos_yang

from netcfg.render.engine import render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.validate import validate

SONIC_YANG = Path(__file__).resolve().parents[3] / "shared" / "sonic-yang"
ASN = "routing:\n"


def _inventory(tmp: Path, block: str) -> Path:
    text = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    assert ASN in text
    path = tmp / "fabric.yaml"
    path.write_text(text.replace(ASN, block + ASN))
    return path


def _rendered(path: Path) -> dict[str, str]:
    result = validate(path)
    assert result.ok, [f.text() for f in result.findings if f.severity == "error"]
    builder = PlanBuilder(result.fabric, result.physics)
    return {d.name: render_plan(builder.plan(d)) for d in result.fabric.switches()}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory) -> Path:
    return _inventory(tmp_path_factory.mktemp("gw"), "management: {gateway: 198.51.100.254}\n")


@pytest.fixture(scope="module")
def rendered(gateway) -> dict[str, str]:
    return _rendered(gateway)


def test_each_nos_routes_its_management_vrf(rendered):
    """EOS: a static route in the management VRF (AVD static-routes.j2 `ip route vrf V P G`);
    NX-OS: under `vrf context management`; NVUE: `vrf mgmt router static 0.0.0.0/0 via G`;
    SONiC: MGMT_INTERFACE `gwaddr` (interfaces.j2 puts it in eth0's own table)."""
    assert "\nip route vrf MGMT 0.0.0.0/0 198.51.100.254\n" in rendered["leaf-su1-r1"]
    assert "vrf context management\n  ip route 0.0.0.0/0 198.51.100.254\n" in \
        rendered["spine-pod1-1"]
    assert ("      mgmt:\n        router:\n          static:\n            0.0.0.0/0:\n"
            "              address-family: ipv4-unicast\n              via:\n"
            "                198.51.100.254:\n                  type: ipv4-address\n"
            ) in rendered["leaf-su2-r5"]
    db = json.loads(rendered["leaf-su2-r1"])
    assert list(db["MGMT_INTERFACE"].values()) == [{"gwaddr": "198.51.100.254"}]
    # no default route reaches the fabric's own routing
    for name in ("leaf-su1-r1", "spine-pod1-1"):
        assert "ip route 0.0.0.0/0" not in rendered[name].split("vrf context management")[0]


def test_junos_routes_it_in_mgmt_junos(gateway, rendered):
    """Junos OS Evolved: `system management-instance` and the route in `mgmt_junos` (Juniper,
    "Management Interface in a Dedicated Instance"); nothing in inet.0, and no CAP014."""
    core = rendered["core1"]
    assert "\n    management-instance;\n" in core
    assert ("routing-instances {\n    mgmt_junos {\n        routing-options {\n"
            "            static {\n                route 0.0.0.0/0 next-hop 198.51.100.254;\n"
            "            }\n        }\n    }\n}\n") in core
    assert core.count("0.0.0.0/0") == 1
    assert not [f for f in validate(gateway).findings if f.rule in ("CAP014", "CAP027")]
    check_junos_yang(core)  # junos-conf-system and -routing-instances, 24.4R1-EVO


def test_lab_grammars_and_nvue_schema_take_it(rendered):
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.cumulus.config import parse_document, set_tree
    from netcfg.lab.cumulus.emulator import DEFAULT_VERSION
    from netcfg.lab.cumulus.schema import release
    from netcfg.lab.cumulus.schema import validate as nvue_validate
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    parse_indented(rendered["leaf-su1-r1"], GRAMMAR, "config", strict=True)
    parse(rendered["spine-pod1-1"], strict=True)
    tree: dict = {}
    for op, body in parse_document(rendered["leaf-su2-r5"]):
        assert op == "set"
        set_tree(tree, body)
    nvue_validate(tree, release(DEFAULT_VERSION))


def test_sonic_yang_takes_the_gateway(rendered, tmp_path):
    if not (SONIC_YANG / "validate_config_db.py").is_file():
        pytest.skip("../shared/sonic-yang is not present (CI provides it)")
    pytest.importorskip("libyang", reason="libyang binding (extra 'yang') not installed")
    f = tmp_path / "leaf-su2-r1.json"
    f.write_text(rendered["leaf-su2-r1"])
    run = subprocess.run([sys.executable, str(SONIC_YANG / "validate_config_db.py"), str(f)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and ": VALID" in run.stdout, run.stdout + run.stderr


def test_a_gateway_inside_the_pool_is_left_out_of_it(tmp_path):
    """Gateway .1, the first host: the 32 switches take .2 to .33 instead of .1 to .32."""
    result = validate(_inventory(tmp_path, "management: {gateway: 198.51.100.1}\n"))
    assert result.ok
    addresses = sorted(int(d.management.split("/")[0].rsplit(".", 1)[1])
                       for d in result.fabric.switches())
    assert addresses == list(range(2, 34))
    assert {d.management_gateway for d in result.fabric.switches()} == {"198.51.100.1"}


@pytest.mark.parametrize("block,message", [
    ("management: {gateway: 192.0.2.1}\n",
     "gateway 192.0.2.1 is outside leaf-su1-r1's management subnet 198.51.100.0/24"),
    ("management: {gateway: 198.51.100.77}\ndevices:\n  core1:\n    management: "
     "{address: 198.51.100.77/24}\n", "gateway 198.51.100.77 is core1's management address"),
])
def test_a_gateway_that_cannot_be_one_is_an_error(tmp_path, block, message):
    path = _inventory(tmp_path, block)
    found = [f for f in validate(path).findings if f.rule == "SCH003"]
    assert found and message in found[0].message, [f.text() for f in found]
    assert found[0].line == path.read_text().splitlines().index(block.splitlines()[0]) + 1
