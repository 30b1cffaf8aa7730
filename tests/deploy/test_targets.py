"""Credentials (environment or a private file, never printed) and deterministic selection."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from netcfg.deploy.secrets import CredentialError, Secret, redact, remember, resolve
from netcfg.deploy.targets import (
    TargetError,
    from_devices_file,
    parse_shard,
    select,
    shard_of,
    with_trust,
)
from netcfg.intent.model import Credential

from .deploy_cases import multivendor


def test_password_from_environment_is_masked_everywhere():
    login = resolve("lab", Credential(username="ops", password_env="SW_PASS"), base=None,
                    environ={"SW_PASS": "hunter2-xyz"})
    assert login.password.reveal() == "hunter2-xyz"
    assert "hunter2" not in repr(login) + str(login.password) + repr(login.password)
    assert redact("auth failed for ops/hunter2-xyz") == "auth failed for ops/********"


def test_missing_environment_variable_names_it_not_a_value():
    with pytest.raises(CredentialError, match="SW_PASS is not set"):
        resolve("lab", Credential(username="ops", password_env="SW_PASS"), None, environ={})


def test_credentials_file_must_be_private(tmp_path):
    path = tmp_path / "secrets.yaml"
    path.write_text("username: ops\npassword: file-secret-1\n")
    path.chmod(0o644)
    with pytest.raises(CredentialError, match="chmod 600"):
        resolve("lab", Credential(file="secrets.yaml"), tmp_path)
    path.chmod(0o600)
    login = resolve("lab", Credential(file="secrets.yaml"), tmp_path)
    assert login.username == "ops" and login.password == Secret("file-secret-1")


def test_shards_split_the_fleet_exactly_and_stably():
    fabric = multivendor().fabric
    everyone = [d.name for d in select(fabric)]
    shards = [[d.name for d in select(fabric, shard=(i, 4))] for i in range(1, 5)]
    assert sorted(n for s in shards for n in s) == sorted(everyone)
    assert all(shards)  # 32 switches over 4 runners: nobody idle
    assert all(shard_of(n, 4) == i + 1 for i, s in enumerate(shards) for n in s)
    assert [d.name for d in select(fabric, ("leaf-*",), limit=("*-r1",))] == [
        "leaf-su1-r1", "leaf-su2-r1"]


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3"])
def test_bad_shard_is_a_clear_error(text):
    with pytest.raises(TargetError, match="--shard"):
        parse_shard(text)


def test_incomplete_devices_file_is_a_clear_error(tmp_path):
    from netcfg.deploy.targets import from_devices_file

    fabric = multivendor().fabric
    path = tmp_path / "devices.yaml"
    path.write_text("devices:\n  leaf-su1-r1: {nos: eos, address: 127.0.0.1}\n")
    path.chmod(0o600)
    with pytest.raises(TargetError, match="lacks username, password, endpoints"):
        from_devices_file(fabric, select(fabric, ("leaf-su1-r1",)), path)


def _connect_file(tmp_path: Path, device: str, **fields: object) -> Path:
    entry = {"nos": "eos", "driver": "eos", "address": "127.0.0.1", "username": "ops",
             "password": "pw", "endpoints": {"https": {"proto": "https", "port": 8443}}}
    entry.update(fields)
    path = tmp_path / "devices.yaml"
    path.write_text(yaml.safe_dump({"devices": {device: entry}}))
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("field, value", [
    ("known_hosts", "/tmp/kh\n  ProxyCommand touch {marker}"),
    ("ca_file", "ca.pem\r\nHost *"),
    ("address", "127.0.0.1\x1b[2J"),
    ("username", "ops\x00root"),
    ("password", "pw\u0085next"),
])
def test_a_connect_file_value_with_a_control_character_is_refused(tmp_path, field, value):
    fabric = multivendor().fabric
    eos = next(d for d in select(fabric) if fabric.platform(d).nos == "eos")
    marker = tmp_path / "ran"
    path = _connect_file(tmp_path, eos.name, **{field: value.format(marker=marker)})
    with pytest.raises(TargetError, match=f"{field} holds a control character"):
        from_devices_file(fabric, [eos], path)
    assert not marker.exists()


@pytest.mark.parametrize("port", ["22; rm -rf /", 0, 70000, None, True])
def test_a_connect_file_port_must_be_a_port_number(tmp_path, port):
    fabric = multivendor().fabric
    eos = next(d for d in select(fabric) if fabric.platform(d).nos == "eos")
    path = _connect_file(tmp_path, eos.name,
                         endpoints={"https": {"proto": "https", "port": port}})
    with pytest.raises(TargetError, match="port 1-65535"):
        from_devices_file(fabric, [eos], path)


def test_command_line_trust_paths_are_checked_too():
    with pytest.raises(TargetError, match="known_hosts holds a control character"):
        with_trust([], known_hosts="kh\nProxyCommand id")


def test_masking_hides_the_password_token_and_leaves_unrelated_words():
    remember("zq9mulus")  # unlike any word another test prints: the set of known values is global
    remember("p@zq9!")
    assert redact("ssh ops/zq9mulus failed on zq9mulus_linux") == \
        "ssh ops/******** failed on zq9mulus_linux"
    assert redact("password=zq9mulus, retry") == "password=********, retry"
    assert redact("token p@zq9!x") == "token ********x"  # the password's own edge is no word
