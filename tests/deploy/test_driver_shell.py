"""netcfg's shell drivers never take output nobody asked for (a prompt answering one of
netmiko's extra Enters during a slow login) for part of an answer. SONiC frames each command
with its own status marker and reads after the command's echo (netcfg/deploy/drivers/shell.py);
Cumulus relies on netmiko's echo check (`cmd_verify`), which drops what comes before the echo."""

from __future__ import annotations

import json
import time

import pytest

from netcfg.deploy.drivers.shell import Framed, after_echo
from netcfg.lab import DeviceSpec

PROMPT = "admin@sw1:~$ "


def test_after_echo_skips_stray_output():
    out = f"\r\n{PROMPT}\r\n{PROMPT}show x\r\n{{\"a\": 1}}\r\n{PROMPT}"
    assert after_echo(out, "show x") == f'{{"a": 1}}\n{PROMPT}'
    # no echo at all (a device that does not echo): netmiko's rule, drop the first line
    assert after_echo("junk\nanswer\n", "show x") == "answer\n"


def test_framed_status_is_this_commands_own():
    first, second = Framed("show x"), Framed("show x")
    assert first.marker != second.marker
    stale = f"{first.line}\r\nold\r\n{first.marker}0\r\n{PROMPT}"
    out = f"{stale}{second.line}\r\nnew\r\nlines\r\n{second.marker}3\r\n{PROMPT}"
    assert second.split(out) == ("new\nlines", 3)
    assert second.split(stale) is None  # the earlier command's status is not this one's
    assert first.split(f"{first.line}\r\n{first.marker}0\r\n{PROMPT}") == ("", 0)


@pytest.mark.parametrize("nos, driver", [("sonic", "netcfg_sonic"),
                                         ("cumulus", "netcfg_cumulus")])
def test_stray_prompts_in_the_channel_are_not_the_answer(make_lab, drivers, nos, driver):
    lab = make_lab(DeviceSpec("sw1", nos))
    drv = drivers(driver, lab["sw1"])
    drv.open()
    expected = drv.get_config(retrieve="running")["running"]
    for _ in range(3):
        drv.device.write_channel("\n")  # as netmiko's find_prompt does while it waits
    time.sleep(0.3)  # their prompts are in the channel, unread
    assert drv.get_config(retrieve="running")["running"] == expected
    assert drv.get_facts()["hostname"] == "sw1"
    if nos == "sonic":
        json.loads(expected)
