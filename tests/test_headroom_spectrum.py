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


# Worked by hand from the formula of the spec (no worked example there for 200G or a gearbox);
# port MTU 9100, pattern 1024/50 (b = 11.7647 %, occ = 1.2352941), w = 3.
#  SPC4 200G 5 m: cable = 2*5*200000e9/1.98e8/8000 = 1262.63; prop = 9100 + 1262.63 + 819.2
#    + 453*64 (28992) + tile 200*120/8 (3000) = 43173.83; 1024 + prop*occ = 54356.4 -> 55296;
#    worst ceilK(1024 + 3*prop) = 131072 > 55296 + 2048 -> xoff 57344; size 57344 + 19456.
#  40 m: cable 10101.01, prop 52012.21 -> 65275.0 -> 65536 (+2048) = 67584.
#  300 m: cable 75757.58, prop 117668.78 -> 146379.6 -> 146432 (+2048) = 148480.
#  SPC3 200G 5 m: no tile, prop 40173.83 -> 50650.5 -> 51200 (+2048) = 53248.
#  SPC4 400G 40 m with gearbox 400: gearbox = 400000*400/8192 = 19531.25, prop = 94041.22
#    + 2*19531.25 = 133103.72 -> 165446.2 -> 165888 (+2048) = 167936; size + 19456.
#  SHP on, SPC4 200G 40 m: no compensation, xoff 65536, size = xon.
HAND_WORKED = [
    (dict(asic=SPC4, speed=200 * G, cable_m=5), Headroom(19456, 57344, 76800)),
    (dict(asic=SPC4, speed=200 * G, cable_m=40), Headroom(19456, 67584, 87040)),
    (dict(asic=SPC4, speed=200 * G, cable_m=300), Headroom(19456, 148480, 167936)),
    (dict(asic=SPC3, speed=200 * G, cable_m=5), Headroom(19456, 53248, 72704)),
    (dict(asic=SPC4, speed=400 * G, cable_m=40, gearbox_delay=400),
     Headroom(19456, 167936, 187392)),
    (dict(asic=SPC4, speed=200 * G, cable_m=40, shared_headroom_pool=True),
     Headroom(19456, 65536, 19456)),
]


@pytest.mark.parametrize("kwargs,want", HAND_WORKED)
def test_hand_worked(kwargs, want):
    assert headroom(**kwargs) == want


def test_steps_end_in_the_result():
    """The explained steps are the computation: the last xoff/xon/size steps are the result."""
    got = headroom(SPC4, 400 * G, 40)
    last = {s.name: s.value for s in got.steps}
    assert (last["xon"], last["xoff"], last["size"]) == (got.xon, got.xoff, got.size)
    assert [s.name for s in got.steps].count("xoff") == 2  # rounding, then compensation
