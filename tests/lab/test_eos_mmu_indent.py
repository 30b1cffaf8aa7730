"""The lines of `platform trident mmu queue profile` sit 4 spaces deep: in the rendered file, in
what the EOS lab prints for `show running-config`, and in what Arista's pyavd renders.

The expected text is written by hand from Arista's pyavd `eos_cli_config_gen`
`platform-trident` template (pyavd 6.4: `'    ingress threshold '` ...), the one Arista source
for this section's layout (docs/render-eos.md, "Indentation"). Where pyavd can be run
(importable here, or NETCFG_PYAVD_PYTHON names a Python that has it), the block is also
compared with what pyavd renders for the same profile.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pyavd_cases import pyavd_python

from netcfg.lab import DeviceSpec

GOLDEN = Path(__file__).resolve().parents[1] / "render" / "golden" / "eos"
#: the profile and values as they stand in the multivendor goldens (tests/render/golden/eos)
BLOCK = ("platform trident mmu queue profile NETCFG-LOSSLESS\n"
         "    ingress threshold 1\n"
         "    ingress headroom 151892\n"
         "    ingress resume 9398\n")
HASH = "$6$x$" + "y" * 86
START = ("hostname leaf1\n"
         f"username admin privilege 15 role network-admin secret sha512 {HASH}\n"
         "management api http-commands\n   no shutdown\n")


def _block(text: str, head: str) -> str:
    """The block `head` opens in `text`, its own lines as printed, up to the next `!`/top line."""
    lines = text.splitlines()
    at = lines.index(head)
    out = [head]
    for line in lines[at + 1:]:
        if not line.startswith(" "):
            break
        out.append(line)
    return "\n".join(out) + "\n"


def test_the_rendered_file_writes_the_profile_at_4_spaces():
    """The golden (held byte-equal to the renderer's output by tests/render/test_eos.py)."""
    text = (GOLDEN / "leaf-su1-r1.cfg").read_text()
    assert _block(text, BLOCK.splitlines()[0]) == BLOCK


def test_the_lab_prints_the_profile_as_arista_writes_it(make_lab, drivers):
    """Read from a saved file (4 spaces) and pushed as NAPALM sends lines (stripped), the
    profile comes back at 4 spaces; interfaces keep EOS's 3."""
    lab = make_lab(DeviceSpec("leaf1", "eos", startup_config=START + BLOCK + "!\n"
                              + "interface Ethernet1/1\n   description x\n"))
    dev = lab["leaf1"]
    running = dev.running_config()
    assert _block(running, "platform trident mmu queue profile NETCFG-LOSSLESS") == BLOCK
    assert "interface Ethernet1/1\n   description x\n" in running
    driver = drivers("eos", dev)
    driver.open()
    driver.load_merge_candidate(config="platform trident mmu queue profile OTHER\n"
                                       "ingress threshold 1/2\n"
                                       "ingress headroom 64000\n")
    driver.commit_config()
    assert _block(dev.running_config(), "platform trident mmu queue profile OTHER") == (
        "platform trident mmu queue profile OTHER\n"
        "    ingress threshold 1/2\n"
        "    ingress headroom 64000\n")
    # the same text again is no change: the lab's printed form reads back as itself
    driver.load_merge_candidate(config=_block(dev.running_config(),
                                              "platform trident mmu queue profile OTHER"))
    assert driver.compare_config() == ""
    driver.discard_config()


_PYAVD = """
import json, sys
from pyavd import get_device_config
print(get_device_config(json.load(sys.stdin)))
"""


def test_same_block_as_pyavd():
    python = pyavd_python()
    if python is None:
        pytest.skip("pyavd is not installed here (set NETCFG_PYAVD_PYTHON to a Python with "
                    "pyavd to compare with Arista's renderer)")
    structured = {"hostname": "x", "platform": {"trident": {"mmu": {"queue_profiles": [
        {"name": "NETCFG-LOSSLESS", "ingress": {"threshold": "1",
                                                "headroom": {"memory": 151892},
                                                "resume": 9398}}]}}}}
    out = subprocess.run([python, "-c", _PYAVD], input=json.dumps(structured), text=True,
                         capture_output=True, timeout=120, check=True).stdout
    assert _block(out, BLOCK.splitlines()[0]) == BLOCK
