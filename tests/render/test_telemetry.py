"""Telemetry agents from the intent (management.telemetry), each line as the vendor writes it,
taken by the lab's grammars and schemas and, for Junos, by Juniper's YANG:
- EOS gNMI: `management api gnmi` / `transport grpc default` / `ssl profile <p>`, `port <n>`,
  `vrf MGMT` (Arista's AVD management-api-gnmi.j2); CloudVision: `daemon TerminAttr` / `exec
  /usr/bin/TerminAttr -cvaddr=<a,...> -cvauth=token,<file> -cvvrf=MGMT -taillogs` / `no
  shutdown` (AVD daemon-terminattr.j2);
- NX-OS: `feature grpc`, `grpc port <n>`, `grpc certificate <trustpoint>` (Cisco's gNMI
  configuration; the agent serves the management VRF on 50051 by default);
- Junos: `system services extension-service request-response grpc ssl { port <n>;
  local-certificate <c>; }` (junos-conf-system 24.4R1-EVO: gRPC over TLS only), none without
  a certificate (CAP010);
- NVUE: `system gnmi-server listening-address <management address>`, `port`, `certificate`,
  `state enabled` (NVIDIA's gNMI Streaming page, 5.13 and later);
- SONiC: none (CAP010); CloudVision only on EOS (CAP010 elsewhere)."""

from __future__ import annotations

import pytest
import yaml
from render_cases import check_junos_yang, check_nvue, render_multivendor


def _render(tmp, telemetry: str, extra: str = "") -> dict[str, str]:
    return render_multivendor(tmp, extra + "management:\n  telemetry:\n" + telemetry)


FULL = """    gnmi: {port: 50100, certificate: gnmi-cert}
    cloudvision:
      addresses: ["cv1.example.com:9910", "cv2.example.com:9910"]
      token_file: /tmp/cv-onboarding-token
"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    return _render(tmp_path_factory.mktemp("telemetry"), FULL)


def _block(text: str, first: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(first)
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return lines[start:end]


def test_eos_gnmi_and_terminattr(rendered):
    from netcfg.lab.cfgtree import parse_indented
    from netcfg.lab.eos.emulator import GRAMMAR

    eos = rendered["leaf-su1-r1"]
    assert _block(eos, "management api gnmi") == [
        "management api gnmi", "   transport grpc default", "      ssl profile gnmi-cert",
        "      port 50100", "      vrf MGMT"]
    assert _block(eos, "daemon TerminAttr") == [
        "daemon TerminAttr",
        "   exec /usr/bin/TerminAttr -cvaddr=cv1.example.com:9910,cv2.example.com:9910 "
        "-cvauth=token,/tmp/cv-onboarding-token -cvvrf=MGMT -taillogs",
        "   no shutdown"]
    parse_indented(eos, GRAMMAR, "config", strict=True)


def test_nxos_grpc(rendered):
    from netcfg.lab.nxos.config import parse

    nxos = rendered["spine-pod1-1"]
    assert "feature grpc" in nxos.splitlines()
    assert [ln for ln in nxos.splitlines() if ln.startswith("grpc ")] == [
        "grpc port 50100", "grpc certificate gnmi-cert"]
    parse(nxos, strict=True)


def test_junos_grpc_against_junipers_yang(rendered, tmp_path):
    core = rendered["core1"]
    start = core.index("        extension-service {")
    assert core[start:core.index("\n    }\n", start)] == (
        "        extension-service {\n            request-response {\n"
        "                grpc {\n                    ssl {\n"
        "                        port 50100;\n"
        '                        local-certificate "gnmi-cert";\n'
        "                    }\n                }\n            }\n        }")
    check_junos_yang(core)


@pytest.mark.parametrize("release", ["5.15", "5.14"])
def test_nvue_gnmi_server(rendered, tmp_path, release):
    text = rendered["leaf-su2-r5"] if release == "5.15" else _render(
        tmp_path, FULL, "releases: {cumulus: '5.14'}\n")["leaf-su2-r5"]
    body = yaml.safe_load(text)[0]["set"]
    server = body["system"]["gnmi-server"]
    assert server["state"] == "enabled" and server["port"] == 50100
    assert server["certificate"] == "gnmi-cert"
    assert list(server["listening-address"]) == ["198.51.100.13"]  # its management address
    assert "198.51.100.13/" in text  # ... the one eth0 has
    check_nvue(text, release)


def test_without_a_certificate_junos_renders_none_and_says_so(tmp_path):
    out = _render(tmp_path, "    gnmi: {}\n")
    assert "extension-service" not in out["core1"]
    assert "feature grpc" in out["spine-pod1-1"]
    assert "ssl profile" not in out["leaf-su1-r1"] and "vrf MGMT" in "\n".join(
        _block(out["leaf-su1-r1"], "management api gnmi"))
    lines = out["findings"].splitlines()
    assert any("management.telemetry.gnmi" in ln and "[CAP010]" in ln and "junos" in ln
               and "TLS only" in ln for ln in lines)
    assert any("[CAP010]" in ln and "sonic" in ln and "gnmi" in ln for ln in lines)
    assert not any("[CAP010]" in ln and "cumulus" in ln and "gnmi" in ln for ln in lines)


def test_junos_states_a_port_only_where_the_intent_gives_one(tmp_path):
    """Juniper's YANG gives `grpc ssl port` the default 32767: without `port` the file states
    none and the switch uses its own."""
    core = _render(tmp_path, "    gnmi: {certificate: gnmi-cert}\n")["core1"]
    start = core.index("                    ssl {")
    assert core[start:core.index("                    }\n", start)] == (
        "                    ssl {\n"
        '                        local-certificate "gnmi-cert";\n')
    check_junos_yang(core)
