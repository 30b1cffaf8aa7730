"""Cumulus AAA: the file states none, and a push keeps whatever TACACS+ the switch runs.

NVIDIA's pages contradict each other on the two things a rendered AAA section would have to
get right (docs/render-cumulus.md, "AAA: TACACS+ and RADIUS"; ../shared/specs/vendors/
cumulus-mgmt-sources.md), so netcfg renders neither reading and the switch keeps its own. The
sections below are written by hand in each of NVIDIA's readings:
- the 5.14/5.15 TACACS pages: `nv set system aaa tacacs server 192.168.0.30 priority 5`, `...
  secret ...`, `nv set system aaa tacacs vrf mgmt`, `nv set system aaa authentication-order 5
  tacacs`, `... 10 local` (server keyed by its address);
- the NVUE reference and the 5.4 command list: `nv set system aaa tacacs server 5 host
  192.168.0.30` (server keyed by its priority), `nv set system aaa tacacs enable on`.
Whatever the switch stores, a push of a file without AAA must leave it as it was: the login
path (TACACS+ first, local second) is the switch's, not the file's.
"""

from __future__ import annotations

import pytest
import yaml

from netcfg.deploy.preserve import keep
from netcfg.vendors import vendor

from .deploy_cases import desired_with

AAA = ("management:\n  aaa:\n    protocol: tacacs+\n    servers: [192.0.2.7]\n"
       "    key: {password_env: NETCFG_AAA_KEY}\n")
#: NVIDIA's two readings of the same TACACS+ setup, as nested NVUE keys
BY_ADDRESS = {"tacacs": {"vrf": "mgmt", "server": {"192.168.0.30": {
    "priority": 5, "secret": "abcdefghijklmnopqrstuvwxyz"}}},
    "authentication-order": {"5": "tacacs", "10": "local"}}
BY_PRIORITY = {"tacacs": {"enable": "on", "vrf": "mgmt", "server": {"5": {
    "host": "192.168.0.30", "secret": "mytacacskey"}}},
    "authentication-order": {"5": "tacacs", "10": "local"}}


@pytest.fixture(scope="module")
def candidate(tmp_path_factory, monkeypatch_module) -> str:
    monkeypatch_module.setenv("NETCFG_AAA_KEY", "aaa-key-1")
    return desired_with(tmp_path_factory.mktemp("aaa"), "leaf-su2-r5", AAA).text


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_the_file_states_no_aaa_of_either_reading(candidate):
    body = next(d["set"] for d in yaml.safe_load(candidate) if "set" in d)
    aaa = body.get("system", {}).get("aaa", {})
    assert not {"tacacs", "radius", "authentication-order", "authentication"} & set(aaa)


@pytest.mark.parametrize("reading", [BY_ADDRESS, BY_PRIORITY], ids=["by-address", "by-priority"])
def test_a_push_keeps_the_switchs_tacacs_in_either_reading(candidate, reading):
    cumulus = vendor("cumulus").deploy
    running = yaml.safe_dump([{"header": {"rev-id": 1.0}}, {"set": {
        "system": {"hostname": "leaf-su2-r5", "aaa": {
            "user": {"cumulus": {"role": "system-admin"}}, **reading}}}}])
    kept = keep(cumulus, running, candidate, cumulus.policy())
    merged: dict = {}
    for doc in yaml.safe_load(kept.text):
        for key, value in (doc.get("set") or {}).get("system", {}).get("aaa", {}).items():
            merged.setdefault(key, {}).update(value)
    assert merged["tacacs"] == reading["tacacs"]
    assert merged["authentication-order"] == reading["authentication-order"]
    assert {"system aaa tacacs", "system aaa authentication-order"} <= set(kept.kept)
