"""Junos root password by reference: the rendered file commits on its own, the hash is read
from the environment or a 0600 file and shown nowhere, and a push keeps the device's own root
password unless the intent says its hash replaces it.

The hashes are what `openssl passwd -1/-5/-6 -salt abcdefgh pw` prints (a real program, not
netcfg); the lab refuses a commit without root-authentication and, given Juniper's YANG,
anything the schema refuses."""

from __future__ import annotations

import pytest

from netcfg.deploy.preserve import keep
from netcfg.deploy.secrets import CredentialError, root_hash
from netcfg.intent.model import RootAuthentication
from netcfg.vendors import vendor
from netcfg.vendors.junos.syntax import select

from .deploy_cases import MULTIVENDOR, SHARED, devices_file, specs
from .test_cli import netcfg

MD5 = "$1$abcdefgh$IQtUouv7y7Q9dRWkQEPCc."
SHA256 = "$5$abcdefgh$ijtOJ//yvc/9bq1g0llFn9dB688BwBDRD90DlKKSKE1"
SHA512 = ("$6$abcdefgh$KQeXafAQAaOoKTevphVU215RvJdgzyfASRasIOuh12hO8u0r1bGW92ZnTmC9IjsiQ8VPiTXBiZF"
          "49dFL1U4wX/")
#: the lab's factory root hash (netcfg/lab/junos/emulator.py: a placeholder, no real password)
LAB_HASH = "$6$netcfglab$" + "0" * 86


def _inventory(tmp, on_push: str | None = None):
    inventory = tmp / "rooted"
    inventory.mkdir()
    extra = "" if on_push is None else f", on_push: {on_push}"
    (inventory / "fabric.yaml").write_text(
        (MULTIVENDOR / "fabric.yaml").read_text()
        + f"management:\n  root_authentication: {{hash_env: NETCFG_ROOT_HASH{extra}}}\n")
    return inventory


@pytest.mark.parametrize("value", [MD5, SHA256, SHA512])
def test_crypt_hashes_are_taken(value):
    ref = RootAuthentication(hash_env="H")
    assert root_hash(ref, None, {"H": value}).reveal() == value


@pytest.mark.parametrize("value", ["hunter2", "", SHA512[:-1], SHA512 + "x", "$6$salt$short",
                                   MD5.replace("$1$", "$2$")])
def test_anything_else_is_refused_without_being_shown(value):
    with pytest.raises(CredentialError) as err:
        root_hash(RootAuthentication(hash_env="H"), None, {"H": value})
    assert "not a crypt hash" in str(err.value)
    assert not value or value not in str(err.value)


def test_a_0600_file_holds_the_hash(tmp_path):
    path = tmp_path / "root.yaml"
    path.write_text(f"hash: '{SHA512}'\n")
    path.chmod(0o600)
    assert root_hash(RootAuthentication(file=str(path)), None, {}).reveal() == SHA512
    path.chmod(0o644)
    with pytest.raises(CredentialError, match="chmod 600"):
        root_hash(RootAuthentication(file=str(path)), None, {})


def test_render_fills_the_hash_and_refuses_without_it(tmp_path, monkeypatch):
    inventory, out = _inventory(tmp_path), tmp_path / "out"
    monkeypatch.delenv("NETCFG_ROOT_HASH", raising=False)
    missing = netcfg("render", str(inventory), "--out", str(out), check=1)
    assert "environment variable NETCFG_ROOT_HASH is not set" in missing.stderr
    assert not out.exists()
    monkeypatch.setenv("NETCFG_ROOT_HASH", "plain-password")
    plain = netcfg("render", str(inventory), "--out", str(out), check=1)
    assert "not a crypt hash" in plain.stderr and "plain-password" not in plain.stderr
    monkeypatch.setenv("NETCFG_ROOT_HASH", SHA512)
    netcfg("render", str(inventory), "--out", str(out), check=0)
    core = (out / "core1.conf").read_text()
    assert (f'    root-authentication {{\n        encrypted-password "{SHA512}";\n    }}\n'
            in core)
    assert all(SHA512 not in (out / name).read_text()
               for name in ("leaf-su1-r1.cfg", "spine-pod1-1.cfg"))  # EOS, NX-OS keep their own


def test_the_file_alone_commits_and_without_the_hash_it_does_not(tmp_path, monkeypatch, drivers,
                                                                make_lab):
    """A rendered core1.conf loaded as it is (no netcfg push, so nothing of the device's is
    kept), as ZTP or a reviewer would: the lab refuses it without root-authentication and
    takes it with the hash (and, where the lab has Juniper's YANG, the schema takes it)."""
    from netcfg.lab import DeviceSpec
    from netcfg.lab.truth import vendor_options

    inventory, out = _inventory(tmp_path), tmp_path / "out"
    monkeypatch.setenv("NETCFG_ROOT_HASH", SHA512)
    netcfg("render", str(inventory), "--out", str(out), "--device", "core1", check=0)
    bare = tmp_path / "bare"
    netcfg("render", str(MULTIVENDOR), "--out", str(bare), "--device", "core1", check=0)
    lab = make_lab(DeviceSpec("core1", "junos", username="netops", password="lab-pw",
                              options=vendor_options(SHARED)))
    drv = drivers("junos", lab["core1"], username="netops", password="lab-pw")
    drv.open()
    from jnpr.junos.exception import CommitError

    drv.load_replace_candidate(config=(bare / "core1.conf").read_text())
    with pytest.raises(CommitError, match="root-authentication"):
        drv.commit_config()
    drv.discard_config()
    drv.load_replace_candidate(config=(out / "core1.conf").read_text())
    drv.commit_config()
    assert SHA512 in lab["core1"].running_config()


@pytest.mark.parametrize("on_push", [None, "keep_device", "replace"])
def test_push_keeps_the_devices_root_password_unless_told(tmp_path, monkeypatch, make_lab,
                                                          on_push):
    inventory = _inventory(tmp_path, on_push)
    monkeypatch.setenv("NETCFG_ROOT_HASH", SHA512)
    lab = make_lab(*specs(["core1"]))
    assert LAB_HASH in lab["core1"].running_config()
    state = tmp_path / "state"
    common = [str(inventory), "--connect", str(devices_file(lab, tmp_path)), "--state",
              str(state), "--device", "core1"]
    outputs = [netcfg("push", *common, check=0), netcfg("diff", *common, check=0)]
    running = lab["core1"].running_config()
    root = select(running, ("system", "root-authentication"))  # the login has LAB_HASH too
    want, other = (SHA512, LAB_HASH) if on_push == "replace" else (LAB_HASH, SHA512)
    assert want in root and other not in root
    assert running.count("root-authentication") == 1
    for output in outputs:
        assert SHA512 not in output.stdout + output.stderr
    assert all(SHA512 not in p.read_text() for p in state.rglob("*.jsonl"))


def test_the_devices_root_password_wins_only_where_it_has_one():
    junos = vendor("junos").deploy
    ours = ('system {\n    host-name "core1";\n    root-authentication {\n'
            f'        encrypted-password "{SHA512}";\n    }}\n}}\n')
    theirs = ('system {\n    root-authentication {\n'
              f'        encrypted-password "{MD5}";\n    }}\n}}\n')
    device_wins = junos.policy(device_wins=("system root-authentication",))
    kept = keep(junos, theirs, ours, device_wins)
    assert MD5 in kept.text and SHA512 not in kept.text
    assert kept.text.count("root-authentication") == 1
    assert kept.overridden == ["system root-authentication"]  # reported, not silent
    fresh = keep(junos, "system {\n}\n", ours, device_wins)
    assert SHA512 in fresh.text and fresh.overridden == []  # no root password: the intent's
    replaced = keep(junos, theirs, ours, junos.policy())
    assert SHA512 in replaced.text and MD5 not in replaced.text
    assert SHA512 not in junos.mask(replaced.text) and "********" in junos.mask(replaced.text)
