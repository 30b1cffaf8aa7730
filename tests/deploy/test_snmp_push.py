"""The SNMP community through `netcfg push`: the rendered files hold a placeholder, push puts
the community the intent names there, each device (EOS, NX-OS, Junos, Cumulus) then holds it,
and the community appears in no output, journal or rendered file; a device's other community
is masked in its diff. Without the community's variable nothing is touched."""

from __future__ import annotations

from netcfg.render.plan import SNMP_COMMUNITY

from .cli_cases import SecretCase, pushes_a_secret_and_shows_it_nowhere
from .deploy_cases import BY_NOS, MULTIVENDOR

COMMUNITY = SecretCase("NETCFG_SNMP_COMMUNITY", "Ro-Community-4b8e", "has space",
                       "the community must be", "Other-Community-1", SNMP_COMMUNITY)
#: the NOSes that render an SNMP agent (SONiC: CAP010)
AGENTS = {nos: name for nos, name in BY_NOS.items()
          if nos in ("eos", "nxos", "junos", "cumulus")}


def test_push_fills_in_the_community_and_shows_it_nowhere(tmp_path, monkeypatch):
    inventory = tmp_path / "snmp"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + "management:\n  snmp:\n    location: DC1 hall 2\n"
        "    community: {password_env: NETCFG_SNMP_COMMUNITY}\n")
    pushes_a_secret_and_shows_it_nowhere(tmp_path, inventory, sorted(AGENTS.values()),
                                         COMMUNITY, monkeypatch)
