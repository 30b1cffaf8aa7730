"""A Junos QoS change that stops traffic is refused unless the operator allows it, through the
lab and the real NAPALM `junos` driver.

Juniper's text (docs/render-junos.md, "Disruptive changes"):
- `congestion-notification-profile`: "Configuring or changing PFC on an interface blocks the
  entire port until the PFC change is completed ... Blocking the port stops ingress and egress
  traffic, and causes packet loss on all queues on the port until the port is unblocked."
- `shared-buffer` / `buffer-partition`: "Changing the buffer configuration is a disruptive
  event. Traffic stops on all ports until the buffer reprogramming is complete."
A switch fresh from the factory has no port in service, so the first push names nothing; the
second, with the PFC watchdog's detection raised from 200 ms to 400 ms (so the profile on every
lossless port changes), is refused, and goes through with --allow-disruptive."""

from __future__ import annotations

import threading

from netcfg.deploy.engine import Desired, Options, diff_device, push_device
from netcfg.deploy.runs import Run
from netcfg.lab.junos.yang import JunosYang
from netcfg.lab.truth import vendor_options

from .deploy_cases import BY_NOS, SHARED, desired_with, fleet, specs

OPTS = Options(timeout=20, revert_in=300)
WATCHDOG = ("qos:\n  pfc:\n    watchdog: {enabled: true, detection: 400ms, restoration: 200ms, "
            "action: drop, poll_interval: 100ms}\n")
PFC = "(Junos blocks each port, ingress and egress, until the change completes)"
BUFFERS = ("changes the shared-buffer partitions (Junos stops traffic on all ports until the "
           "buffers are reprogrammed)")


def test_a_pfc_change_on_ports_in_service_needs_allow_disruptive(make_lab, tmp_path):
    name = BY_NOS["junos"]
    JunosYang.from_options(vendor_options(SHARED))  # once, outside Lab.start()'s timeout
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    target, first = f.targets[0], f.desired[name]
    run = Run(tmp_path / "state")

    fresh = diff_device(target, first, OPTS)
    assert fresh.sections is not None and fresh.sections.disruptive == []
    assert push_device(target, first, run, OPTS, threading.Event()).status == "confirmed"
    assert "detection 2;" in lab[name].running_config()  # 200 ms / 100 ms polls

    wanted = desired_with(tmp_path, name, WATCHDOG)
    assert "detection 4;" in wanted.text  # 400 ms / 100 ms polls
    drift = diff_device(target, wanted, OPTS)
    assert drift.sections is not None
    [pfc] = drift.sections.disruptive
    # the core's 16 fabric ports (8 cages x 2), every one lossless and in service
    assert pfc == f"changes PFC on et-0/0/0:0, et-0/0/0:1, et-0/0/1:0, et-0/0/1:1 and 12 more {PFC}"
    assert f"disruptive: {pfc}" in drift.sections.summary()

    before = lab[name].running_config()
    refused = push_device(target, wanted, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive"), refused
    assert "--allow-disruptive" in (refused.error or "") and pfc in (refused.error or "")
    assert lab[name].running_config() == before
    [event] = [e for e in run.events() if e.device == name and e.event == "refused"]
    assert event.detail["disrupts"] == [pfc]

    allowed = push_device(target, wanted, run, Options(timeout=20, revert_in=300,
                                                       allow_disruptive=True),
                          threading.Event())
    assert allowed.status == "confirmed", allowed
    assert "detection 4;" in lab[name].running_config()

    # a changed buffer split (by hand: ingress lossless 70 + headroom 24 + lossy 6) is named too
    split = wanted.text.replace("percent 66;", "percent 70;", 1).replace("percent 10;",
                                                                          "percent 6;", 1)
    assert split != wanted.text
    moved = diff_device(target, Desired(split, wanted.facts, wanted.reader), OPTS)
    assert moved.sections is not None and moved.sections.disruptive == [BUFFERS]
    # only the partitions changed: the switch shows each forwarding class as a block where the
    # file writes it on one line, and the two compare equal
    assert moved.sections.changed == ["class-of-service shared-buffer"]
