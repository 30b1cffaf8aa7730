"""Logins from the intent (management.users), each by the hash its reference names, filled in
when files are written, never at validate:
- EOS `username <n> privilege 15|1 role network-admin|network-operator secret sha512 <hash>`
  (Arista's AVD local-users.j2; EOS's predefined roles);
- Junos `system login user <n> { class super-user|read-only; authentication {
  encrypted-password "<hash>"; } }` (junos-conf-system; Junos's predefined classes);
- NVUE `system aaa user <n> hashed-password <hash> role system-admin|nvue-monitor`;
- NX-OS `username <n> password 5 <SHA-256 hash> role network-admin|network-operator` (Cisco
  Nexus 9000 NX-OS Security Configuration Guide: `username user-id [password [0 | 5]
  password] [role role-name]`, 5 = encrypted; Nexus 1000V command reference: at most 64
  characters, which no SHA-512 hash fits) for the logins with `sha256`, CAP010 for the rest;
- SONiC: none (CAP010)."""

from __future__ import annotations

import pytest
import yaml
from render_cases import check_junos_yang, check_nvue, render_multivendor

from netcfg.render.plan import user_hash
from netcfg.validate import validate

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
    assert "management.users.netadmin: not a SHA-512 ($6$) crypt hash" in str(err.value)
    assert "hunter2" not in str(err.value)


def test_nxos_and_sonic_say_they_render_none(rendered):
    lines = rendered["findings"].splitlines()
    for nos in ("nxos", "sonic"):
        assert any("management.users" in ln and "[CAP010]" in ln and nos in ln for ln in lines)
    nxos = [ln for ln in lines if "[CAP010]" in ln and "nxos" in ln and "logins" in ln]
    assert len(nxos) == 1 and "netadmin, viewer" in nxos[0] and ".sha256" in nxos[0]


#: SHA-256 crypt hashes (`openssl passwd -5` form: salt, 43-character digest)
ADMIN5 = "$5$saltsalt$" + "c" * 43
SHA256_USERS = """management:
  users:
    netadmin: {role: admin, hash_env: NETCFG_TEST_ADMIN_HASH,
               sha256: {hash_env: NETCFG_TEST_ADMIN_HASH5}}
    viewer: {role: operator, hash_env: NETCFG_TEST_VIEWER_HASH}
"""


def _written(tmp_path, users: str) -> dict[str, str]:
    from render_cases import INVENTORIES

    from netcfg.api import configs, load

    inventory = tmp_path / "inv"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text(
        (INVENTORIES / "multivendor" / "fabric.yaml").read_text() + users)
    return configs(load(inventory), with_hosts=False)


def test_nxos_gets_the_logins_whose_sha256_hash_the_intent_names(tmp_path, monkeypatch):
    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH", ADMIN)
    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH5", ADMIN5)
    monkeypatch.setenv("NETCFG_TEST_VIEWER_HASH", VIEWER)
    files = _written(tmp_path, SHA256_USERS)
    spine = files["spine-pod1-1.cfg"]
    assert [ln for ln in spine.splitlines() if ln.startswith("username")] == [
        f"username netadmin password 5 {ADMIN5} role network-admin"]
    assert len(ADMIN5) <= 64  # what NX-OS takes
    # every other NOS keeps the SHA-512 hash
    assert f"username netadmin privilege 15 role network-admin secret sha512 {ADMIN}" in \
        files["leaf-su1-r1.cfg"]
    assert "NETCFG-USER-" not in "".join(files.values())
    # the login without sha256 is the one CAP010 still names for NX-OS
    result = validate(tmp_path / "inv")
    [finding] = [f.message for f in result.findings
                 if f.rule == "CAP010" and "nxos config does not state the logins" in f.message]
    assert "the logins viewer " in finding and "viewer.sha256" in finding


def test_each_login_gets_its_own_hash_when_one_name_starts_another(tmp_path, monkeypatch):
    """`ops` and `ops2`: the placeholder of `ops` is the start of `ops2`'s."""
    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH", ADMIN)
    monkeypatch.setenv("NETCFG_TEST_VIEWER_HASH", VIEWER)
    files = _written(tmp_path, "management:\n  users:\n"
                     "    ops: {role: admin, hash_env: NETCFG_TEST_ADMIN_HASH}\n"
                     "    ops2: {role: operator, hash_env: NETCFG_TEST_VIEWER_HASH}\n")
    assert [ln for ln in files["leaf-su1-r1.cfg"].splitlines() if ln.startswith("username")] == [
        f"username ops privilege 15 role network-admin secret sha512 {ADMIN}",
        f"username ops2 privilege 1 role network-operator secret sha512 {VIEWER}"]


@pytest.mark.parametrize(("given", "given5", "refused"), [
    # EOS's `secret sha512` takes a SHA-512 hash only
    (ADMIN5, ADMIN5, "management.users.netadmin: not a SHA-512 ($6$) crypt hash"),
    # NX-OS's `password 5` takes a SHA-256 one (a SHA-512 hash is longer than 64 characters)
    (ADMIN, ADMIN, "management.users.netadmin.sha256: not a SHA-256 ($5$) crypt hash"),
])
def test_a_hash_of_the_wrong_kind_is_refused(tmp_path, monkeypatch, given, given5, refused):
    from netcfg.deploy.secrets import CredentialError

    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH", given)
    monkeypatch.setenv("NETCFG_TEST_ADMIN_HASH5", given5)
    monkeypatch.setenv("NETCFG_TEST_VIEWER_HASH", VIEWER)
    with pytest.raises(CredentialError) as err:
        _written(tmp_path, SHA256_USERS)
    assert refused in str(err.value) and given not in str(err.value)
