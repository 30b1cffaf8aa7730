"""A fabric with BGP session keys pushed to the lab: `netcfg push` puts the key where the
rendered files hold the placeholder, the devices hold it, and the key appears in no output,
journal or rendered file; without the key's variable nothing is touched."""

from __future__ import annotations

import json

import yaml

from netcfg.render.plan import SESSION_KEY

from .cli_cases import fleet_args, refuses_a_missing_or_bad_secret
from .deploy_cases import BY_NOS, MULTIVENDOR
from .test_cli import DEVICES, netcfg, serve

KEY = "Fabric-Md5-Key-7c2e"


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
    with serve(tmp_path, DEVICES) as lab:
        state = tmp_path / "state"
        common = fleet_args(inventory, lab, state, DEVICES)
        refuses_a_missing_or_bad_secret(common, state, "NETCFG_BGP_KEY",
                                        "1-starts-with-a-digit", "the session key must be",
                                        monkeypatch)

        monkeypatch.setenv("NETCFG_BGP_KEY", KEY)
        outputs = [netcfg("diff", *common, check=3)]
        pushed = netcfg("push", *common, "--format", "json", check=0)
        report = json.loads(pushed.stdout)
        assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
            DEVICES, "confirmed")
        outputs += [pushed, netcfg("diff", *common, check=0),
                    netcfg("push", *common, "--dry-run", check=0)]
        # the devices hold KEY: with another key every keyed device drifts, on the key lines,
        # both keys masked in the devices' own diffs
        monkeypatch.setenv("NETCFG_BGP_KEY", "Another-Key-5d1")
        other = netcfg("diff", *common, check=3)
        drifting = {name for name in DEVICES if f"{name}: drift" in other.stdout}
        assert drifting == {name for nos, name in BY_NOS.items() if nos != "sonic"}
        assert "********" in other.stdout and "Another-Key-5d1" not in other.stdout
        outputs.append(other)
        monkeypatch.setenv("NETCFG_BGP_KEY", KEY)

        # each device holds the key its NOS states (SONiC states none: CAP013)
        devices = yaml.safe_load(lab.devices.read_text())["devices"]
        assert set(devices) == set(DEVICES)
        rendered = tmp_path / "rendered"
        netcfg("render", str(inventory), "--out", str(rendered), check=0)
        for nos, name in BY_NOS.items():
            text = next(rendered.glob(f"{name}.*")).read_text()
            assert (SESSION_KEY in text) is (nos != "sonic"), name
        assert not [p for p in rendered.rglob("*") if p.is_file() and KEY in p.read_text()]

    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    assert KEY not in journal
    for proc in outputs:
        assert KEY not in proc.stdout + proc.stderr


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
