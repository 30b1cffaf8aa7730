"""Every SSH login of diff, push and rollback is given a known_hosts of its switch's own lines
(netcfg/deploy/known_hosts.py), not the fleet's whole file, which the SSH client parses whole
on every login. The lookups are paramiko's own (the client netmiko and PyEZ use), on files
written here in OpenSSH's format (sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT": `[host]:port` for a
port other than 22, comma-separated names, `|1|` hashed names, `*`/`?`/`!` patterns);
against the lab, a key that changed is still refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import replace
from pathlib import Path

import paramiko

from netcfg.deploy.engine import Options, diff_device
from netcfg.deploy.known_hosts import login_known_hosts
from netcfg.deploy.secrets import Login, Secret
from netcfg.deploy.targets import Target

from .deploy_cases import BY_NOS, fleet, specs


def _public(seed: int) -> str:
    """An ssh-ed25519 public key (key type and base64 blob)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return key.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()


def _hashed(name: str, salt: bytes) -> str:
    """OpenSSH's hashed host name: |1|base64(salt)|base64(HMAC-SHA1(salt, name))."""
    digest = hmac.new(salt, name.encode(), hashlib.sha1).digest()
    return f"|1|{base64.b64encode(salt).decode()}|{base64.b64encode(digest).decode()}"


def test_a_login_gets_its_switchs_lines_with_the_same_lookups(tmp_path: Path):
    login = Login("admin", Secret("x"))
    file = tmp_path / "known_hosts"
    a = Target("leaf1", "leaf", "sonic", "netcfg_sonic", "127.0.0.1", 2201, login,
               known_hosts=str(file))
    nxos = Target("spine1", "spine", "nxos", "nxos", "10.0.0.9", 443, login,
                  ports={"ssh": 22}, known_hosts=str(file))
    lines = [
        "# the lab's file, one line per served switch",
        f"[127.0.0.1]:2201 {_public(1)}",
        f"[127.0.0.1]:2202 {_public(2)}",
        f"[127.0.0.1]:2203,[127.0.0.2]:2201 {_public(3)}",
        f"{_hashed('[127.0.0.1]:2201', b'salt-of-twenty-bytes')} {_public(4)}",
        f"[127.0.0.*]:2209 {_public(5)}",
        f"127.0.0.1 {_public(7)}",
        f"10.0.0.9 {_public(8)}",
        f"[10.0.0.9]:443,other {_public(9)}",
        "",
    ]
    file.write_text("\n".join(lines) + "\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "n").mkdir()
    got = login_known_hosts(a, tmp_path / "a")
    got_nxos = login_known_hosts(nxos, tmp_path / "n")
    # by hand from the lines above: the switch's own names (every port it is reached on; port
    # 22 unbracketed), and the lines that match by hash, pattern or marker, in the file's order
    assert Path(got.known_hosts or "").read_text().splitlines() == [
        lines[1], lines[4], lines[5]]
    assert Path(got_nxos.known_hosts or "").read_text().splitlines() == [
        lines[4], lines[5], lines[7], lines[8]]
    full = paramiko.HostKeys(str(file))
    for target, name in ((got, "[127.0.0.1]:2201"), (got_nxos, "10.0.0.9")):
        mine = paramiko.HostKeys(str(target.known_hosts)).lookup(name)
        theirs = full.lookup(name)
        assert mine is not None and theirs is not None
        assert {k: v.get_base64() for k, v in mine.items()} == \
               {k: v.get_base64() for k, v in theirs.items()}
    # no host-key check, or a file that cannot be read: the target is left as it is
    assert login_known_hosts(replace(a, check_host_keys=False), tmp_path) == replace(
        a, check_host_keys=False)
    missing = replace(a, known_hosts=str(tmp_path / "absent"))
    assert login_known_hosts(missing, tmp_path) == missing
    # the file is parsed again once it changes (a new lab writes a new one)
    file.write_text(f"[127.0.0.1]:2201 {_public(10)}\n")
    again = login_known_hosts(a, tmp_path / "a")
    assert Path(again.known_hosts or "").read_text() == f"[127.0.0.1]:2201 {_public(10)}\n"


def test_diff_reads_only_the_switchs_lines_and_still_refuses_a_changed_key(
        make_lab, tmp_path, monkeypatch):
    """A SONiC switch of the lab (SSH), with the lab's known_hosts padded by 3,000 lines of
    other switches: every known_hosts paramiko loads during the diff holds the switch's own
    line only; its key replaced by another, the diff is refused as an untrusted host key."""
    name = BY_NOS["sonic"]
    lab = make_lab(*specs([name]))
    good = fleet(lab, [name], tmp_path)
    target = good.targets[0]
    assert target.known_hosts is not None
    own = Path(target.known_hosts).read_text().splitlines()
    assert len(own) == 1 and own[0].startswith(f"[127.0.0.1]:{target.port} ")
    padded = tmp_path / "fleet_known_hosts"
    others = [f"[127.0.0.{1 + i // 60000}]:{1024 + i % 60000} {_public(1)}"
              for i in range(3000) if 1024 + i % 60000 != target.port]
    padded.write_text("\n".join([*others[:1500], own[0], *others[1500:]]) + "\n")

    loaded: list[tuple[str, int]] = []
    load = paramiko.HostKeys.load

    def counting(self: paramiko.HostKeys, filename: str) -> None:
        load(self, filename)
        loaded.append((filename, len(Path(filename).read_text().splitlines())))

    monkeypatch.setattr(paramiko.HostKeys, "load", counting)
    result = diff_device(replace(target, known_hosts=str(padded)), good.desired[name],
                         Options(timeout=20))
    assert result.status in ("drift", "unchanged"), result
    ours = [(f, n) for f, n in loaded if Path(f).name == "known_hosts"]
    assert ours and all(n == 1 for _, n in ours), loaded
    assert str(padded) not in {f for f, _ in loaded}

    changed = tmp_path / "changed_known_hosts"
    changed.write_text(padded.read_text().replace(own[0].split(" ", 1)[1], _public(2)))
    refused = diff_device(replace(target, known_hosts=str(changed)), good.desired[name],
                          Options(timeout=20))
    assert refused.status == "unreachable" and refused.stage == "connect", refused
    assert (refused.error or "").startswith("SSH host key not trusted"), refused.error
