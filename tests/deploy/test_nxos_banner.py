"""NX-OS banners: the intent's login banner as `banner motd <d>` + its lines + `<d>`.

Outside truth: Cisco's cisco.nxos collection (nxos_banner, whose integration test on NX-OS
sends `banner motd @` / `Junk motd banner` / `over multiple lines` / `@`, default delimiter
`@`) and Cisco's NX-API REST SDK ("Configuring the MOTD Banner": the DME class
`aaaPreLoginBanner` keeps the delimiter; the MOTD banner is the pre-login one), both quoted in
../shared/specs/vendors/nxos-sources.md. How NX-OS's `show running-config` prints a banner of
several lines is not verified: validate says so (CAP019), and the lab prints it as entered.
"""

from __future__ import annotations

import threading

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run
from netcfg.nos.lineconfig import parse
from netcfg.validate import validate

from .deploy_cases import BY_NOS, MULTIVENDOR, desired_with, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
BANNERS = ("management:\n  banners:\n"
           "    login: |\n      Authorised use only.\n      Activity is logged.\n"
           "    motd: Change window Tuesday\n")


def _findings(tmp_path, extra: str) -> list[str]:  # noqa: ANN001
    inventory = tmp_path / "inventory"
    inventory.mkdir()
    (inventory / "fabric.yaml").write_text((MULTIVENDOR / "fabric.yaml").read_text() + extra)
    return [f.text() for f in validate(inventory).findings]


def test_the_login_banner_is_banner_motd_with_a_delimiter(tmp_path):
    name = BY_NOS["nxos"]
    text = desired_with(tmp_path, name, BANNERS).text
    assert "banner motd @\nAuthorised use only.\nActivity is logged.\n@\n" in text
    assert "Change window Tuesday" not in text  # the post-login banner: CAP010
    # one statement for netcfg's own reader (sections a replace keeps, diffs, removal)
    [banner] = [s for s in parse(text) if s.text.startswith("banner")]
    assert banner.text == "banner motd @"
    assert banner.lines == ["banner motd @", "Authorised use only.", "Activity is logged.", "@"]
    # a text holding `@` takes the next delimiter
    text = desired_with(tmp_path, name, "management:\n  banners:\n"
                        "    login: mail noc@example.com\n").text
    assert "banner motd #\nmail noc@example.com\n#\n" in text


def test_validate_names_what_is_not_rendered_or_not_verified(tmp_path):
    found = "\n".join(_findings(tmp_path, BANNERS))
    assert "[CAP010]" in found and "post-login banner" in found
    assert "[CAP019]" in found and "`banner motd <d> ... <d>`" in found


def test_a_banner_holding_every_delimiter_is_refused(tmp_path):
    found = "\n".join(_findings(tmp_path, "management:\n  banners:\n"
                                "    login: \"@ # % ^ & * ~ |\"\n"))
    assert "[SCH005]" in found and "management.banners.login on nxos" in found


def test_the_banner_is_pushed_kept_and_changed(make_lab, tmp_path):
    name = BY_NOS["nxos"]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    target = fleet(lab, [name], tmp_path).targets[0]
    first = desired_with(tmp_path, name, BANNERS)
    pushed = push_device(target, first, Run(tmp_path / "one"), OPTS, threading.Event())
    assert pushed.status == "confirmed", pushed
    running = lab[name].running_config()
    assert "banner motd @\nAuthorised use only.\nActivity is logged.\n@" in running
    assert diff_device(target, first, OPTS).status == "unchanged"
    second = desired_with(tmp_path, name, "management:\n  banners:\n"
                          "    login: Authorised use only, again.\n")
    changed = push_device(target, second, Run(tmp_path / "two"), OPTS, threading.Event())
    assert changed.status == "confirmed", changed
    running = lab[name].running_config()
    assert "banner motd @\nAuthorised use only, again.\n@" in running
    assert "Activity is logged." not in running
