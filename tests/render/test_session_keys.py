"""BGP session authentication (routing.authentication): every NOS that can states a TCP MD5
key on each session whose both ends can, with a placeholder where the key goes; the key
itself is never rendered. Checked against each NOS's own parser where one is here (Juniper's
YANG, FRR's vtysh) and the lab's grammars; counts are arithmetic on the multivendor topology."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from render_cases import GOLDEN, INVENTORIES, junos_unchecked, junos_yang

from netcfg.render.engine import render_plan
from netcfg.render.plan import SESSION_KEY, PlanBuilder
from netcfg.validate import validate
from netcfg.vendors import vendor

KEY = "Not-In-Any-File-42"


@pytest.fixture(scope="module")
def keyed(tmp_path_factory) -> Path:
    """multivendor with routing.authentication by environment variable."""
    text = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    asn = "  asn: {leaf: unique, spine: per_pod, core: shared}\n"
    assert asn in text
    path = tmp_path_factory.mktemp("keyed") / "fabric.yaml"
    path.write_text(text.replace(asn, asn + "  authentication: {password_env: BGP_KEY}\n"))
    return path


@pytest.fixture(scope="module")
def rendered(keyed) -> dict[str, tuple[str, str]]:
    result = validate(keyed)
    builder = PlanBuilder(result.fabric, result.physics)
    return {d.name: (builder.plan(d).nos, render_plan(builder.plan(d)))
            for d in result.fabric.switches()}


def test_keys_on_every_session_both_ends_can_key(rendered, monkeypatch):
    """A pod-2 spine has 48 sessions: 4 links to each of 8 leaves, 16 to the cores. The 4
    SONiC leaves (16 links) cannot state a key, so 32 are keyed; a core's 16 sessions go to
    NX-OS spines, all keyed; a SONiC leaf states none."""
    monkeypatch.setenv("BGP_KEY", KEY)
    count = {name: text.count(SESSION_KEY) for name, (_, text) in rendered.items()}
    assert count["spine-pod2-1"] == 32 and count["spine-pod1-1"] == 48
    assert count["core1"] == 16
    assert count["leaf-su2-r1"] == 0 and count["leaf-su2-r5"] == 16
    assert count["leaf-su1-r1"] == 16
    assert not [name for name, (_, text) in rendered.items() if KEY in text]


def test_each_nos_spells_the_key_its_way(rendered):
    """EOS `neighbor A password 0 K` (0 = clear text), NX-OS `password 0 K` in the neighbour,
    Junos `authentication-key "K";` in the neighbour, NVUE `password: K` in the neighbour:
    the forms of each vendor's BGP configuration guide (docs/render-<nos>.md)."""
    assert f"   neighbor 10.64.0.0 password 0 {SESSION_KEY}\n" in rendered["leaf-su1-r1"][1]
    assert f"\n    password 0 {SESSION_KEY}\n" in rendered["spine-pod1-1"][1]
    assert f'authentication-key "{SESSION_KEY}";' in rendered["core1"][1]
    assert f"                password: {SESSION_KEY}\n" in rendered["leaf-su2-r5"][1]


def test_every_file_reads_back_its_keys(rendered, keyed):
    result = validate(keyed)
    builder = PlanBuilder(result.fabric, result.physics)
    for dev in result.fabric.switches():
        plan = builder.plan(dev)
        nos = vendor(plan.nos)
        facts = nos.read_routing(render_plan(plan))
        assert nos.expected_routing(plan).differences(facts) == [], dev.name
        if plan.nos != "sonic":
            assert facts.keyed, dev.name


def test_validate_names_the_nos_without_keys(keyed):
    found = [f for f in validate(keyed).findings if f.rule == "CAP013"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "leaf-su2-r1 and 3 more sonic switches" in found[0].message
    assert found[0].path == "routing.authentication"


def test_a_key_needs_a_reference(tmp_path):
    text = (INVENTORIES / "example" / "fabric.yaml").read_text()
    path = tmp_path / "fabric.yaml"
    path.write_text(text.replace("routing:\n", "routing:\n  authentication: {}\n"))
    found = [f for f in validate(path).findings if f.rule == "SCH002"]
    assert found and "routing.authentication needs password_env or file" in found[0].message


def test_lab_grammars_take_the_keyed_files(rendered):
    """The lab's EOS and NX-OS grammars (strict: an unknown line raises ConfigError)."""
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR
    from netcfg.lab.nxos.config import parse

    eos = parse_indented(rendered["leaf-su1-r1"][1], GRAMMAR, "config", strict=True)
    nxos = parse(rendered["spine-pod1-1"][1], strict=True)
    assert SESSION_KEY in "\n".join(n.line for _, n in eos.walk())
    assert SESSION_KEY in "\n".join(n.line for _, n in nxos.walk())


def test_junipers_yang_takes_the_keyed_core(rendered):
    texts = {"core1": rendered["core1"][1]} | {
        p.name: p.read_text() for p in sorted((GOLDEN / "junos").glob("*.conf"))}
    for name, text in texts.items():
        assert junos_yang().errors(text) == [], name
    # exactly the shared-buffer partitions go unchecked: Juniper's published Evolved YANG
    # lacks them (../shared/junos-yang README, "Known gap"; tests/render/test_junos_yang.py)
    assert {where for text in texts.values() for where in junos_unchecked(text)} == {
        "class-of-service shared-buffer egress", "class-of-service shared-buffer ingress"}


@pytest.mark.skipif(shutil.which("vtysh") is None, reason="FRR's vtysh is not installed")
def test_frrs_parser_takes_a_keyed_router(rendered, keyed, tmp_path):
    """The twin's FRR router for a keyed spine: `neighbor A password K`."""
    from netcfg.twin.run import frr_config, read_back

    result = validate(keyed)
    plan = PlanBuilder(result.fabric, result.physics).plan(result.fabric.devices["spine-pod2-1"])
    text = frr_config(plan, read_back(plan))
    assert text.count(f" password {SESSION_KEY}\n") == 32
    conf = tmp_path / "frr.conf"
    conf.write_text(text)
    check = subprocess.run(["vtysh", "-C", "-f", str(conf)], capture_output=True, text=True,
                           timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
