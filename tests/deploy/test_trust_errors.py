"""A device netcfg does not trust is reported as exactly that, on every NOS: a certificate from
another CA or a host key missing from known_hosts, never "connection refused" (PyEZ wraps an
unknown host key in ConnectRefusedError, NAPALM's NX-OS driver a certificate failure in
"Cannot connect"), and the message names the option that fixes it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from netcfg.deploy.engine import Options, diff_device
from netcfg.lab.trust import TrustStore

from .deploy_cases import BY_NOS, fleet, specs


@pytest.mark.parametrize("nos", sorted(BY_NOS))
def test_an_untrusted_device_is_named_untrusted(make_lab, tmp_path, nos):
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    good = fleet(lab, [name], tmp_path)
    other = TrustStore(tmp_path / "other")  # another CA, an empty known_hosts
    try:
        target = replace(good.targets[0], ca_file=str(other.ca_path),
                         known_hosts=str(other.known_hosts_path))
        result = diff_device(target, good.desired[name], Options(timeout=10))
    finally:
        other.close()
    assert result.status == "unreachable" and result.stage == "connect", result
    error = result.error or ""
    if nos in ("eos", "nxos"):  # HTTPS management APIs
        assert error.startswith("TLS certificate not trusted (give its CA with --ca-file)"), error
    else:  # NETCONF, SSH
        assert error.startswith("SSH host key not trusted"), error
    assert "--known-hosts" in error or "--ca-file" in error
