"""What keeps `netcfg verify` linear at fleet size (netcfg/verify/run.py): each switch's own
known_hosts lines, and the reports kept packed. The host-key lookups are paramiko's own (the
SSH client netmiko and PyEZ use), on a known_hosts file written here in OpenSSH's format
(sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT": `[host]:port` for a port other than 22, comma-
separated names, `|1|` hashed names, `*`/`?`/`!` patterns)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path

import paramiko

from netcfg.deploy.secrets import Login, Secret
from netcfg.deploy.targets import Target
from netcfg.verify.checks import Check
from netcfg.verify.run import DeviceReport, Reports, VerifyResult, own_known_hosts


def _public(seed: int) -> str:
    """An ssh-ed25519 public key line part (key type and base64 blob)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return key.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()


def _hashed(name: str, salt: bytes) -> str:
    """OpenSSH's hashed host name: |1|base64(salt)|base64(HMAC-SHA1(salt, name))."""
    digest = hmac.new(salt, name.encode(), hashlib.sha1).digest()
    return f"|1|{base64.b64encode(salt).decode()}|{base64.b64encode(digest).decode()}"


def test_each_switch_gets_its_own_known_hosts_lines_with_the_same_lookups(tmp_path: Path):
    login = Login("admin", Secret("x"))
    a, b = (Target(f"leaf{port}", "leaf", "sonic", "netcfg_sonic", "127.0.0.1", port, login,
                   known_hosts=str(tmp_path / "known_hosts")) for port in (2201, 2202))
    lines = [
        "# the lab's file, one line per served switch",
        f"[127.0.0.1]:2201 {_public(1)}",
        f"[127.0.0.1]:2202 {_public(2)}",
        f"[127.0.0.1]:2203,[127.0.0.2]:2201 {_public(3)}",
        f"{_hashed('[127.0.0.1]:2202', b'salt-of-twenty-bytes')} {_public(4)}",
        f"[127.0.0.*]:2209 {_public(5)}",
        f"127.0.0.1 {_public(7)}",
    ]
    (tmp_path / "known_hosts").write_text("\n".join(lines) + "\n")
    own = tmp_path / "own"
    own.mkdir()
    got_a, got_b = own_known_hosts([a, b], own)
    text_a = Path(got_a.known_hosts or "").read_text().splitlines()
    text_b = Path(got_b.known_hosts or "").read_text().splitlines()
    # by hand from the lines above: the target's own name, and the lines that match by
    # pattern, hash or marker, in the file's order; never another port's plain line
    assert text_a == [lines[1], lines[4], lines[5]]
    assert text_b == [lines[2], lines[4], lines[5]]
    full = paramiko.HostKeys(str(tmp_path / "known_hosts"))
    for target, path in ((a, got_a.known_hosts), (b, got_b.known_hosts)):
        name = f"[{target.host}]:{target.port}"
        mine = paramiko.HostKeys(str(path)).lookup(name)
        theirs = full.lookup(name)
        assert mine is not None and theirs is not None
        assert {k: v.get_base64() for k, v in mine.items()} == \
               {k: v.get_base64() for k, v in theirs.items()}
    # paramiko finds switch b's key under its hashed line too: the hash stayed in b's file
    assert paramiko.HostKeys(str(got_b.known_hosts)).lookup("[127.0.0.1]:2202") is not None


def test_reports_are_kept_packed_and_read_back_whole():
    made = [DeviceReport(f"leaf{i}", "sonic",
                         [Check("VFY004", f"leaf{i}", f"Ethernet{j}", j % 2 == 0, f"port {j}")
                          for j in range(3)], ["unreachable"] if i == 1 else [], ["PFC"], 0.5)
            for i in range(3)]
    kept = Reports(made)
    assert len(kept) == 3
    assert list(kept) == made
    assert kept[1] == made[1] and kept[-1] == made[2] and kept[0:2] == made[:2]
    [only] = Reports(made[:1])
    assert only == made[0]
    # what the exit code and the findings need is kept beside them: two failed per switch
    # (ports 1 of each: j % 2 != 0), and leaf1 could not be verified
    assert [(c.device, c.interface) for c in kept.failed()] == \
        [("leaf0", "Ethernet1"), ("leaf1", "Ethernet1"), ("leaf2", "Ethernet1")]
    assert kept.unverified() and not Reports([made[0], made[2]]).unverified()
    result = VerifyResult("f", None, kept)
    assert result.total() == len(result.checks()) == 9
    assert result.failed() == [c for d in made for c in d.checks if not c.ok]
    assert result.exit_code == 4


def test_configs_made_one_at_a_time_are_the_ones_made_together(tmp_path: Path):
    """verify makes each switch's config and plan on its turn (LazyDesired, Plans) instead
    of holding the fleet's: the same Desired as desired_configs, for a switch of every NOS,
    and a config that cannot be made stops the command up front, as before."""
    import pytest
    from deploy.deploy_cases import BY_NOS, multivendor

    from netcfg.deploy.desired import DesiredError, LazyDesired, desired_configs
    from netcfg.render.plan import PlanBuilder
    from netcfg.verify.run import Plans

    v = multivendor()
    assert v.fabric is not None and v.physics is not None
    chosen = [v.fabric.devices[name] for name in BY_NOS.values()]
    together = desired_configs(v.fabric, v.physics, chosen)
    lazy = LazyDesired(v.fabric, v.physics, chosen)
    assert list(lazy) == list(together) and len(lazy) == 5
    for name, want in together.items():
        got = lazy[name]
        assert got == want and got.reader is not None and want.reader is not None
        assert got.reader(want.text) == want.reader(want.text)
    builder = PlanBuilder(v.fabric, v.physics)
    plans = Plans(builder, chosen)
    assert {n: plans[n] for n in plans} == {d.name: builder.plan(d) for d in chosen}
    # --configs with one file missing: refused before any switch is read
    with pytest.raises(DesiredError, match="cannot read"):
        LazyDesired(v.fabric, v.physics, chosen, tmp_path)
