"""Banners from the intent (management.banners): EOS `banner login|motd`, the text, `EOF`
(Arista's AVD banners.j2), NVUE `system message pre-login|post-login` (NVIDIA's NVUE
reference), Junos `system login message|announcement` (Juniper's `login` statement page,
checked against Juniper's YANG); NX-OS `banner motd <d>` for the login banner only (CAP010
for the other), SONiC BANNER_MESSAGE. EOS
banners that NAPALM's driver would change on the way (blank lines, leading blanks, `!`
lines, a line `EOF`) are refused at validate; a several-line NVUE banner is flagged
unverified (CAP019)."""

from __future__ import annotations

import pytest
import yaml
from render_cases import check_junos_yang, render_multivendor

from netcfg.vendors.lineconfig import parse

LOGIN = "Authorised use only.\nActivity is logged."
MOTD = "Change window: Tuesday 02:00 UTC"


def _render(tmp, banners: str) -> tuple[dict[str, str], str]:
    """The rendered files and the findings; no files where validate refuses the banners."""
    try:
        out = render_multivendor(tmp, "management:\n  banners:\n" + banners)
    except AssertionError as refused:
        return {}, str(refused)
    return out, out["findings"]


BANNERS = ("    login: |\n      Authorised use only.\n      Activity is logged.\n"
           f"    motd: \"{MOTD}\"\n")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return _render(tmp_path_factory.mktemp("banners"), BANNERS)


def test_eos_banners_as_avd_writes_them(rendered):
    from netcfg.lab.cfgtree import parse_indented, render
    from netcfg.lab.eos.emulator import GRAMMAR

    files, _ = rendered
    lines = files["leaf-su1-r1"].splitlines()
    start = lines.index("banner login")
    assert lines[start:start + 8] == ["banner login", "Authorised use only.",
                                      "Activity is logged.", "EOF", "!", "banner motd", MOTD,
                                      "EOF"]
    # one statement each for netcfg's own reader (sections, removal, raw_config lint) ...
    banners = [s for s in parse(files["leaf-su1-r1"]) if s.text.startswith("banner")]
    assert [s.text for s in banners] == ["banner login", "banner motd"]
    assert banners[0].lines == ["banner login", "Authorised use only.", "Activity is logged.",
                                "EOF"]
    # ... and for the lab's EOS, which keeps the text and prints it back the same way
    tree = parse_indented(files["leaf-su1-r1"], GRAMMAR, "config", strict=True)
    node = tree.child("banner login")
    assert node is not None and node.text == LOGIN
    assert "\n".join(render(tree, 3, True)).count("Activity is logged.\nEOF") == 1


def test_nvue_messages(rendered):
    files, findings = rendered
    body = yaml.safe_load(files["leaf-su2-r5"])[0]["set"]
    assert body["system"]["message"] == {"pre-login": LOGIN, "post-login": MOTD}
    assert "management.banners.login" in findings and "[CAP019]" in findings


def test_junos_login_message_and_announcement(rendered):
    """Juniper's `login` statement page: `message` before login, `announcement` after, `\\n`
    a line break inside the one quoted string; Juniper's YANG takes the file."""
    files, findings = rendered
    lines = files["core1"].splitlines()
    assert '        message "Authorised use only.\\nActivity is logged.";' in lines
    assert f'        announcement "{MOTD}";' in lines
    assert not any("management.banners" in ln and "junos" in ln for ln in findings.splitlines())
    check_junos_yang(files["core1"])


def test_junos_escapes_quotes_and_backslashes(tmp_path):
    files, _ = _render(tmp_path, '    motd: \'say "hi" \\ bye\'\n')
    assert '        announcement "say \\"hi\\" \\\\ bye";' in files["core1"].splitlines()
    check_junos_yang(files["core1"])


def test_nxos_renders_the_login_banner_only(rendered):
    """NX-OS's `banner motd` is its pre-login banner (tests/deploy/test_nxos_banner.py); the
    post-login one is not rendered and CAP010 says so."""
    files, findings = rendered
    assert "banner motd @\nAuthorised use only.\nActivity is logged.\n@\n" in files["spine-pod1-1"]
    assert MOTD not in files["spine-pod1-1"]
    assert any("management.banners.motd" in ln and "[CAP010]" in ln and "nxos" in ln
               for ln in findings.splitlines())


def test_sonic_banner_message(rendered):
    """sonic-banner.yang BANNER_MESSAGE|global: `state enabled` (hostcfgd writes the texts
    only then; the factory's is disabled), `login` and `motd` as the intent has them."""
    import json

    files, findings = rendered
    assert json.loads(files["leaf-su2-r1"])["BANNER_MESSAGE"] == {
        "global": {"state": "enabled", "login": LOGIN, "motd": MOTD}}
    assert not any("management.banners" in ln and "sonic" in ln
                   for ln in findings.splitlines())


@pytest.mark.parametrize("login, why", [
    ("first\n\nthird", "line 2 ''"),
    ("first\n  indented", "line 2 '  indented'"),
    ("! a comment", "line 1"),
    ("text\nEOF\nreload", "line 2 'EOF'"),
])
def test_eos_refuses_what_its_driver_would_change(tmp_path, login, why):
    files, findings = _render(tmp_path, f"    login: {login!r}\n".replace("'", '"')
                              if "\n" not in login else
                              "    login: |\n" + "".join(f"      {ln}\n" if ln else "\n"
                                                       for ln in login.split("\n")))
    assert not files
    assert "[SCH005]" in findings and "management.banners.login on eos" in findings
    assert why in findings
