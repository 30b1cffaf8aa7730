"""How each NOS shows a BGP session key in a device's own diff, and that netcfg masks every
form (the push of the key itself: tests/deploy/test_secrets_push.py)."""

from __future__ import annotations


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
