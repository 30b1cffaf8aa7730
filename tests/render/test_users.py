"""Logins from the intent (management.users), each by the hash its reference names, filled in
when files are written, never at validate:
- EOS `username <n> privilege 15|1 role network-admin|network-operator secret sha512 <hash>`
  (Arista's AVD local-users.j2; EOS's predefined roles);
- Junos `system login user <n> { class super-user|read-only; authentication {
  encrypted-password "<hash>"; } }` (junos-conf-system; Junos's predefined classes);
- NVUE `system aaa user <n> hashed-password <hash> role system-admin|nvue-monitor`;
- NX-OS and SONiC: none (CAP010)."""

from __future__ import annotations

import pytest
import yaml
from render_cases import check_junos_yang, check_nvue, render_multivendor

from netcfg.render.plan import user_hash

ADMIN = "$6$saltsalt$" + "a" * 86
VIEWER = "$6$saltsalt$" + "b" * 86
USERS = """management:
  users:
    netadmin: {role: admin, hash_env: NETCFG_TEST_ADMIN_HASH}
    viewer: {role: operator, hash_env: NETCFG_TEST_VIEWER_HASH}
"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    return render_multivendor(tmp_path_factory.mktemp("users"), USERS)


def test_files_hold_placeholders_until_written(rendered):
    assert user_hash("netadmin") == "NETCFG-USER-HASH-netadmin"
    assert [ln for ln in rendered["leaf-su1-r1"].splitlines() if ln.startswith("username")] == [
        "username netadmin privilege 15 role network-admin secret sha512 "
        "NETCFG-USER-HASH-netadmin",
        "username viewer privilege 1 role network-operator secret sha512 "
        "NETCFG-USER-HASH-viewer"]


def test_written_files_hold_the_hashes(tmp_path, monkeypatch):
    from netcfg.api import configs, load

    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH", ADMIN)
    monkeypatch.setenv("NETCFG_TEST_VIEWER_HASH", VIEWER)
    inventory = tmp_path / "inv"
    inventory.mkdir()
    from render_cases import INVENTORIES

    (inventory / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text() + USERS)
    files = configs(load(inventory), with_hosts=False)
    core = files["core1.conf"]
    start = core.index("    login {")
    assert core[start:core.index("\n    }\n", start) + 7] == (
        "    login {\n"
        "        user netadmin {\n            class super-user;\n            authentication {\n"
        f'                encrypted-password "{ADMIN}";\n            }}\n        }}\n'
        "        user viewer {\n            class read-only;\n            authentication {\n"
        f'                encrypted-password "{VIEWER}";\n            }}\n        }}\n'
        "    }\n")
    check_junos_yang(core)
    body = yaml.safe_load(files["leaf-su2-r5.yaml"])[0]["set"]
    assert body["system"]["aaa"]["user"] == {
        "netadmin": {"hashed-password": ADMIN, "role": "system-admin"},
        "viewer": {"hashed-password": VIEWER, "role": "nvue-monitor"}}
    check_nvue(files["leaf-su2-r5.yaml"], "5.15")
    assert "NETCFG-USER-HASH" not in "".join(files.values())
    assert "username" not in files["spine-pod1-1.cfg"]


def test_a_password_instead_of_a_hash_is_refused_without_being_shown(tmp_path, monkeypatch):
    from render_cases import INVENTORIES

    from netcfg.api import configs, load
    from netcfg.deploy.secrets import CredentialError

    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH", "hunter2-plain")
    monkeypatch.setenv("NETCFG_TEST_VIEWER_HASH", VIEWER)
    inventory = tmp_path / "inv"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text() + USERS)
    with pytest.raises(CredentialError) as err:
        configs(load(inventory), with_hosts=False)
    assert "management.users.netadmin: not a crypt hash" in str(err.value)
    assert "hunter2" not in str(err.value)


def test_nxos_and_sonic_say_they_render_none(rendered):
    lines = rendered["findings"].splitlines()
    for nos in ("nxos", "sonic"):
        assert any("management.users" in ln and "[CAP010]" in ln and nos in ln for ln in lines)
