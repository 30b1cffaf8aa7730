"""A fabric with BGP session keys pushed to the lab: `netcfg push` puts the key where the
rendered files hold the placeholder, the devices hold it, and the key appears in no output,
journal or rendered file; without the key's variable nothing is touched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from netcfg.render.plan import SESSION_KEY

from .cli_cases import SecretCase, netcfg, pushes_a_secret_and_shows_it_nowhere
from .deploy_cases import BY_NOS, MULTIVENDOR
from .test_cli import DEVICES

KEY = SecretCase("NETCFG_BGP_KEY", "Fabric-Md5-Key-7c2e", "1-starts-with-a-digit",
                 "the session key must be", "Another-Key-5d1", SESSION_KEY)


def _keyed_inventory(tmp):
    inventory = tmp / "keyed"
    inventory.mkdir()
    text = (MULTIVENDOR / "fabric.yaml").read_text()
    asn = "  asn: {leaf: unique, spine: per_pod, core: shared}\n"
    (inventory / "fabric.yaml").write_text(
        text.replace(asn, asn + "  authentication: {password_env: NETCFG_BGP_KEY}\n"))
    return inventory


def test_push_fills_in_the_key_and_shows_it_nowhere(tmp_path, monkeypatch):
    inventory = _keyed_inventory(tmp_path)

    def dry_run_too(state: Path, report: dict[str, Any]) -> None:
        """Nothing left to do, and a dry run says so without showing the key."""
        devices = tmp_path / "devices.yaml"
        common = [str(inventory), "--connect", str(devices), "--state", str(state),
                  *[x for name in DEVICES for x in ("--device", name)]]
        assert KEY.value not in netcfg("push", *common, "--dry-run", check=0).stdout

    # each device holds the key its NOS states (SONiC states none: CAP013)
    pushes_a_secret_and_shows_it_nowhere(
        tmp_path, inventory, DEVICES, KEY, monkeypatch, inspect=dry_run_too,
        holders={name for nos, name in BY_NOS.items() if nos != "sonic"})


def test_each_nos_masks_the_key_in_the_form_its_device_shows():
    """The forms the NOSes store a session key in (EOS type 7, NX-OS type 3, Junos $9$, NVUE
    clear text), as a device's own diff shows them; the key's statement stays readable."""
    from netcfg.vendors import vendor

    shown = {
        "eos": ("-   neighbor 10.64.0.0 password 7 Xk3rT0Qa==",
                "-   neighbor 10.64.0.0 password 7 ********"),
        "nxos": ("-    password 3 0x9b2c4e7f", "-    password 3 ********"),
        "junos": ('-    authentication-key "$9$AbCdEfGh"; ## SECRET-DATA',
                  "-    authentication-key ********; ## SECRET-DATA"),
        "cumulus": ("-                password: Fabric-Md5-Key-7c2e",
                    "-                password: ********"),
    }
    for nos, (line, masked) in shown.items():
        assert vendor(nos).deploy.mask(line) == masked, nos
