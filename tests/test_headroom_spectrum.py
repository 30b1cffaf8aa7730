"""SONiC Spectrum headroom model against the worked examples of
`../shared/specs/headroom-sonic-spectrum.md` (which match the upstream Lua byte for byte)."""

from __future__ import annotations

import pytest

from netcfg.physics.sonic_spectrum import Headroom, SpectrumAsic, headroom

SPC3 = SpectrumAsic(generation=3, cell=144)
SPC4 = SpectrumAsic(generation=4, cell=192)
SPC5 = SpectrumAsic(generation=5, cell=192)
SPC6 = SpectrumAsic(generation=6, cell=256, pipeline_latency_kib=42)
G = 1000  # Mb/s per Gb/s

# (asic, speed, lanes, cable m, xon, xoff, size); port MTU 9100, pattern 1024/50, SHP off
DEFAULT_PATTERN = [
    (SPC4, 400 * G, 4, 5, 19456, 98304, 117760),
    (SPC4, 400 * G, 4, 40, 19456, 119808, 139264),
    (SPC4, 400 * G, 4, 300, 19456, 281600, 301056),
    (SPC4, 400 * G, 8, 5, 38912, 98304, 146432),
    (SPC4, 400 * G, 8, 40, 38912, 119808, 167936),
    (SPC4, 400 * G, 8, 300, 38912, 281600, 329728),
    (SPC4, 800 * G, 8, 5, 38912, 108544, 156672),
    (SPC4, 800 * G, 8, 40, 38912, 152576, 200704),
    (SPC4, 800 * G, 8, 300, 38912, 476160, 524288),
    (SPC5, 800 * G, 8, 5, 38912, 108544, 156672),
    (SPC5, 800 * G, 8, 40, 38912, 152576, 200704),
    (SPC5, 800 * G, 8, 300, 38912, 476160, 524288),
    (SPC3, 400 * G, 8, 5, 38912, 90112, 138240),
    (SPC3, 400 * G, 8, 40, 38912, 112640, 160768),
    (SPC3, 400 * G, 8, 300, 38912, 274432, 322560),
    (SPC3, 100 * G, 4, 5, 19456, 48128, 67584),
    (SPC3, 100 * G, 4, 40, 19456, 53248, 72704),
    (SPC3, 100 * G, 4, 300, 19456, 94208, 113664),
    (SPC6, 800 * G, 8, 5, 86016, 120832, 216064),
    (SPC6, 800 * G, 8, 40, 86016, 168960, 264192),
    (SPC6, 800 * G, 8, 300, 86016, 524288, 619520),
]

# Worst case: small_packet_percentage 100
WORST_CASE = [
    (SPC4, 400 * G, 4, 5, 19456, 230400, 249856),
    (SPC4, 400 * G, 4, 40, 19456, 283648, 303104),
    (SPC4, 400 * G, 4, 300, 19456, 677888, 697344),
    (SPC4, 400 * G, 8, 5, 38912, 230400, 278528),
    (SPC4, 400 * G, 8, 40, 38912, 283648, 331776),
    (SPC4, 400 * G, 8, 300, 38912, 677888, 726016),
    (SPC4, 800 * G, 8, 5, 38912, 256000, 304128),
    (SPC4, 800 * G, 8, 40, 38912, 362496, 410624),
    (SPC4, 800 * G, 8, 300, 38912, 1149952, 1198080),
    (SPC3, 400 * G, 8, 5, 38912, 212992, 261120),
    (SPC3, 400 * G, 8, 40, 38912, 265216, 313344),
    (SPC3, 400 * G, 8, 300, 38912, 659456, 707584),
]


@pytest.mark.parametrize("asic,speed,lanes,cable,xon,xoff,size", DEFAULT_PATTERN)
def test_default_pattern(asic, speed, lanes, cable, xon, xoff, size):
    assert headroom(asic, speed, cable, lanes=lanes) == Headroom(xon, xoff, size)


@pytest.mark.parametrize("asic,speed,lanes,cable,xon,xoff,size", WORST_CASE)
def test_worst_case_pattern(asic, speed, lanes, cable, xon, xoff, size):
    got = headroom(asic, speed, cable, lanes=lanes, small_packet_percentage=100)
    assert got == Headroom(xon, xoff, size)


@pytest.mark.parametrize("cable,xoff", [(5, 96256), (40, 117760), (300, 279552)])
def test_shared_headroom_pool(cable, xoff):
    got = headroom(SPC4, 400 * G, cable, lanes=8, shared_headroom_pool=True)
    assert got == Headroom(38912, xoff, 38912)
