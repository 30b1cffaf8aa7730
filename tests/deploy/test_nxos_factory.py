"""An NX-OS switch fresh from the factory, pushed to by netcfg: the replace target is a
complete configuration that keeps the switch's own sections.

Outside truth: the factory configuration is
../shared/factory/nxos/running-config.factory-10.x.reconstructed.txt, which is only INFERRED
(assembled from lines that public 9.3/10.x captures share; no capture of an N9364E-SG2
exists). The lines this test expects to survive are read from that file, not from netcfg."""

from __future__ import annotations

import pytest

from .deploy_cases import BY_NOS, SHARED, multivendor

pytestmark = pytest.mark.skipif(SHARED is None, reason="needs ../shared/factory (vendor data)")


def _factory_lines(name: str, *prefixes: str) -> list[str]:
    """Lines of the vendor factory file that start with one of `prefixes`, for switch `name`
    (the file's `<switchname>`)."""
    assert SHARED is not None
    text = (SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"
            ).read_text()
    return [line.rstrip().replace("<switchname>", name) for line in text.splitlines()
            if line.startswith(prefixes)]


def test_the_replace_target_keeps_the_switchs_own_sections():
    """The candidate of a replace is a complete configuration (Cisco's configuration-replace
    guide: the file "should not be a partial configuration"): the factory switch's own
    sections netcfg does not render are taken from its running config by the preserve
    policy, so the replace removes none of them; `feature scp-server` (the operator's day-0
    step, which NAPALM's upload needs) stays."""
    from netcfg.deploy.desired import desired_configs
    from netcfg.deploy.preserve import keep
    from netcfg.deploy.sections import compare
    from netcfg.deploy.targets import select
    from netcfg.vendors import vendor

    name = BY_NOS["nxos"]
    assert SHARED is not None
    running = (SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"
               ).read_text().replace("<switchname>", name)
    running = running.replace("hostname ", "feature nxapi\nfeature scp-server\nhostname ", 1)
    result = multivendor()
    assert result.fabric is not None and result.physics is not None
    rendered = desired_configs(result.fabric, result.physics,
                               select(result.fabric, (name,)))[name].text
    adapter = vendor("nxos").deploy
    kept = keep(adapter, running, rendered, adapter.policy())
    own = _factory_lines(name, "copp profile", "boot nxos", "rmon event", "line ", "vdc ",
                         "  limit-resource", "icam ", "ip domain-lookup", "vlan 1")
    assert len(own) >= 14
    assert all(line in kept.text.splitlines() for line in own + ["feature scp-server"])
    change = compare(kept.running, adapter.sections(kept.text))
    assert change.unmanaged == []
    assert not [key for key in change.removed if not key.startswith("interface Ethernet")]
