"""Generic 802.1Qbb headroom term by term, the buffer budget, ECN defaults and properties
of both headroom models (shared/specs/headroom.md)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netcfg.intent.qos import Ecn
from netcfg.physics import ieee, sonic_spectrum
from netcfg.physics.ecn import junos_fill_levels, thresholds
from netcfg.physics.sonic_spectrum import SpectrumAsic
from netcfg.validate import validate

INVENTORIES = Path(__file__).resolve().parent.parent / "inventories"

G = 1000
EXAMPLES = int(os.environ.get("NETCFG_PROPERTY_EXAMPLES", "200"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None)

# shared/specs/headroom.md 6.1: first principles, MTU 9216, no PHY/MAC term, SONiC quanta:
# (Gb/s, cable m, cable RTT bytes, response bytes, sum) with fixed = 2*(9216+20)+84 = 18556.
TABLE_6_1 = [
    (100, 1, 126, 25216, 43898), (100, 5, 631, 25216, 44403), (100, 30, 3788, 25216, 47560),
    (100, 100, 12626, 25216, 56398), (100, 300, 37879, 25216, 81651),
    (200, 1, 253, 28992, 47801), (200, 5, 1263, 28992, 48811), (200, 30, 7576, 28992, 55124),
    (200, 100, 25253, 28992, 72801), (200, 300, 75758, 28992, 123306),
    (400, 1, 505, 57920, 76981), (400, 5, 2525, 57920, 79001), (400, 30, 15152, 57920, 91628),
    (400, 100, 50505, 57920, 126981), (400, 300, 151515, 57920, 227991),
    (800, 1, 1010, 57920, 77486), (800, 5, 5051, 57920, 81527), (800, 30, 30303, 57920, 106779),
    (800, 100, 101010, 57920, 177486), (800, 300, 303030, 57920, 379506),
]


@pytest.mark.parametrize("gbps,cable,cable_bytes,resp,total", TABLE_6_1)
def test_generic_terms_match_the_spec_table(gbps, cable, cable_bytes, resp, total):
    h = ieee.headroom(speed=gbps * G, cable_m=cable, ns_per_m=1e9 / 1.98e8, mtu_local=9216,
                      mtu_peer=9216, pause_quanta=resp // 64, interface_bits=0, cell=254)
    steps = {s.name: s.value for s in h.steps}
    assert steps["own frame"] == steps["peer frame"] == 9236
    assert steps["pfc frame"] == 84
    assert round(steps["cable"]) == cable_bytes
    assert steps["peer response"] == resp
    assert steps["phy/mac delay"] == 0
    assert round(steps["in flight"]) == total


def test_generic_occupancy_by_hand():
    # cell 254: a 64 B packet (84 B on the wire) holds one cell -> 254/84; a 1024 B packet
    # (1044 B on the wire) holds 5 cells -> 1270/1044; 50 % small packets by count is
    # 84/(84+1044) of the wire bytes.
    occ, small, large, share = ieee.occupancy(254, 20, 1024, 50)
    assert small == pytest.approx(254 / 84)
    assert large == pytest.approx(1270 / 1044)
    assert share == pytest.approx(84 / 1128)
    assert occ == pytest.approx(84 / 1128 * 254 / 84 + 1044 / 1128 * 1270 / 1044)


def test_generic_rounding_xon_and_size_by_hand():
    # 400G, 300 m fibre (5.13 ns/m), 100GbE PHY bound 122880 bit, TH5 cell 254, 9216 MTU:
    # 9236 + 84 + 153900 + 15360 + 57920 + 9236 = 245736 bytes in flight.
    h = ieee.headroom(speed=400 * G, cable_m=300, ns_per_m=5.13, mtu_local=9216,
                      mtu_peer=9216, pause_quanta=905, interface_bits=122880, cell=254)
    occ = ieee.occupancy(254, 20, 1024, 50)[0]
    assert h.xoff == math.ceil(245736 * occ / 254) * 254
    assert h.xon == math.ceil(9216 / 254) * 254 == 9398
    assert h.size == h.xoff + h.xon
    shp = ieee.headroom(speed=400 * G, cable_m=300, ns_per_m=5.13, mtu_local=9216,
                        mtu_peer=9216, pause_quanta=905, interface_bits=122880, cell=254,
                        shared_headroom_pool=True)
    assert (shp.xoff, shp.size) == (h.xoff, h.xon)


def test_generic_mtu_of_both_ends():
    a = ieee.headroom(speed=400 * G, cable_m=3, ns_per_m=5.05, mtu_local=9216, mtu_peer=1500,
                      pause_quanta=905, interface_bits=0, cell=254)
    steps = {s.name: s.value for s in a.steps}
    assert (steps["own frame"], steps["peer frame"]) == (9236, 1520)


# ------------------------------------------------------------------------- properties

SPEEDS = [100 * G, 200 * G, 400 * G, 800 * G]
ASICS = [SpectrumAsic(3, 144), SpectrumAsic(4, 192), SpectrumAsic(5, 192),
         SpectrumAsic(6, 256, pipeline_latency_kib=42)]
cables = st.floats(min_value=0.5, max_value=2000, allow_nan=False)
mtus = st.integers(min_value=1500, max_value=9216)
spps = st.integers(min_value=0, max_value=100)


def spectrum(asic, speed, cable, mtu, spp, shp=False):
    return sonic_spectrum.headroom(asic, speed, cable, port_mtu=mtu, lanes=4,
                                   small_packet_percentage=spp, shared_headroom_pool=shp)


def generic(speed, cable, mtu, cell, spp, shp=False):
    from netcfg.physics.ports import per_speed
    from netcfg.platforms import load_catalog

    phys = load_catalog().physics
    return ieee.headroom(speed=speed, cable_m=cable, ns_per_m=5.05, mtu_local=mtu, mtu_peer=mtu,
                         pause_quanta=per_speed(phys.pause_quanta, speed),
                         interface_bits=per_speed(phys.interface_delay_bits, speed), cell=cell,
                         small_packet_percentage=spp, shared_headroom_pool=shp)


@PROPERTY
@given(asic=st.sampled_from(ASICS), speed=st.sampled_from(SPEEDS), a=cables, b=cables,
       mtu=mtus, spp=spps, shp=st.booleans())
def test_spectrum_headroom_grows_with_cable(asic, speed, a, b, mtu, spp, shp):
    lo, hi = sorted((a, b))
    x, y = spectrum(asic, speed, lo, mtu, spp, shp), spectrum(asic, speed, hi, mtu, spp, shp)
    assert y.xoff >= x.xoff and y.size >= x.size


@PROPERTY
@given(asic=st.sampled_from(ASICS), i=st.integers(0, 2), cable=cables, mtu=mtus, spp=spps)
def test_spectrum_headroom_grows_with_speed(asic, i, cable, mtu, spp):
    x, y = (
        spectrum(asic, SPEEDS[i], cable, mtu, spp),
        spectrum(asic, SPEEDS[i + 1], cable, mtu, spp),
    )
    assert y.xoff >= x.xoff and y.size >= x.size


@PROPERTY
@given(asic=st.sampled_from(ASICS), speed=st.sampled_from(SPEEDS), cable=cables, a=mtus,
       b=mtus, spp=spps)
def test_spectrum_headroom_grows_with_mtu(asic, speed, cable, a, b, spp):
    lo, hi = sorted((a, b))
    x, y = spectrum(asic, speed, cable, lo, spp), spectrum(asic, speed, cable, hi, spp)
    assert y.xoff >= x.xoff and y.size >= x.size


@PROPERTY
@given(asic=st.sampled_from(ASICS), speed=st.sampled_from(SPEEDS), cable=cables, mtu=mtus,
       spp=spps, shp=st.booleans())
def test_spectrum_results_are_whole_kib(asic, speed, cable, mtu, spp, shp):
    """SONiC's contract is whole KiB (the SDK then rounds to cells); whole cells is the
    generic model's contract (below)."""
    h = spectrum(asic, speed, cable, mtu, spp, shp)
    assert h.xon % 1024 == h.xoff % 1024 == h.size % 1024 == 0


@PROPERTY
@given(speed=st.sampled_from(SPEEDS), a=cables, b=cables, mtu=mtus, mtu2=mtus,
       cell=st.sampled_from([96, 144, 192, 254, 416, 512]), spp=spps, shp=st.booleans())
def test_generic_headroom_monotonic_and_in_cells(speed, a, b, mtu, mtu2, cell, spp, shp):
    lo, hi = sorted((a, b))
    x, y = generic(speed, lo, mtu, cell, spp, shp), generic(speed, hi, mtu, cell, spp, shp)
    assert y.xoff >= x.xoff and y.size >= x.size
    m_lo, m_hi = sorted((mtu, mtu2))
    assert (
        generic(speed, lo, m_hi, cell, spp, shp).size
        >= generic(speed, lo, m_lo, cell, spp, shp).size
    )
    faster = SPEEDS[min(SPEEDS.index(speed) + 1, 3)]
    assert generic(faster, lo, mtu, cell, spp, shp).xoff >= x.xoff
    for h in (x, y):
        assert h.xon % cell == h.xoff % cell == h.size % cell == 0


# ------------------------------------------------------------------------- fabric level


@pytest.fixture(scope="module")
def example():
    v = validate(INVENTORIES / "example")
    assert v.ok and v.physics is not None
    return v


def test_every_lossless_switch_port_has_headroom(example):
    fabric, phys = example.fabric, example.physics
    switch_ports = [p for d in fabric.switches() for p in d.ports]
    assert set(phys.ports) == set(switch_ports)  # every link of the example is lossless
    for port, h in phys.ports.items():
        assert h.model == "sonic_spectrum"  # SN5600 = Spectrum-4
        # host-facing 3 m DAC vs 30 m fibre uplinks: the longer cable costs more
        if port.peer.device.tier == 0:
            assert h == sonic_spectrum.headroom(SpectrumAsic(4, 192), 400 * G, 3.0,
                                                port_mtu=9216, lanes=4)


#: NVIDIA's SONiC SKU for the SN5600: the egress lossless pool spans Spectrum's shared buffer
#: (sonic-buildimage device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/buffers_defaults_t1.j2)
SN5600_SHARED_BUFFER = 158_229_504


def test_the_spectrum_4_buffer_is_the_one_nvidias_sonic_sku_sizes():
    """The catalog's figure against the SKU file itself, where ../shared holds it."""
    sku = (Path(__file__).resolve().parents[2] / "shared" / "sonic-skus" / "sonic-buildimage"
           / "device" / "mellanox" / "x86_64-nvidia_sn5600-r0" / "ACS-SN5600")
    if not sku.is_dir():
        pytest.skip("../shared/sonic-skus is absent (CI has it)")
    for topo in ("t0", "t1"):
        text = (sku / f"buffers_defaults_{topo}.j2").read_text()
        assert f"egress_lossless_pool_size =  '{SN5600_SHARED_BUFFER}'" in text


def test_budget_by_hand(example):
    b = example.physics.budgets["leaf-su1-r1"]
    h3 = sonic_spectrum.headroom(SpectrumAsic(4, 192), 400 * G, 3.0, port_mtu=9216)
    h30 = sonic_spectrum.headroom(SpectrumAsic(4, 192), 400 * G, 30.0, port_mtu=9216)
    assert b.reserved == 32 * h3.size + 32 * h30.size
    assert b.buffer == SN5600_SHARED_BUFFER
    assert b.shared == b.buffer - b.reserved
    # Cumulus: the lossless PGs draw on the 50 % lossless pool; alpha 1, 8 congested queues
    assert b.lossless_shared == b.shared // 2
    assert b.queue_limit == int(b.shared // 2 / 9)
    assert [p.peer.device.role for p, _ in b.costliest(3)] == ["spine"] * 3


def test_shared_headroom_pool_sonic_formula():
    # 64 ports x 1 PG, xoff 100 KiB each, ratio 2: ceil((64*102400 - 64*10240) / 2)
    assert sonic_spectrum.shared_headroom_pool(64 * 102400, 64, 2) == 64 * 92160 // 2
    assert sonic_spectrum.shared_headroom_pool(0, 4, 2) == 655360
    assert ieee.shared_headroom_pool(1000, 3, 254) == 508


def test_ecn_defaults_scale_with_speed_and_stay_below_pfc():
    e = thresholds(Ecn(), ("qos",), 400 * G, 5.0, 20_000_000)
    assert (e.min, e.max, e.probability) == (150_000, 1_500_000, 5)  # NVIDIA's 400G defaults
    e800 = thresholds(Ecn(), ("qos",), 800 * G, 5.0, 20_000_000)
    assert (e800.min, e800.max) == (300_000, 3_000_000)
    capped = thresholds(Ecn(), ("qos",), 400 * G, 5.0, 1_000_000)
    assert capped.max == 800_000 < 1_000_000
    user = thresholds(Ecn(min="100KB"), ("qos", "x"), 400 * G, 5.0, 20_000_000)
    assert user.min == 100_000 and user.source("min") == ("qos", "x", "min")
    assert user.source("max") is None


def test_junos_fill_levels():
    from decimal import Decimal

    assert junos_fill_levels(150_000, 1_500_000, 15_000_000) == (1, 10)
    assert str(junos_fill_levels(150_000, 1_500_000, 15_000_000)[0]) == "1"  # no "1.000000000"
    # 10,000 / 15,000,000 = 0.0666...% and 20,000 / 15,000,000 = 0.1333...%, nine digits
    assert junos_fill_levels(10_000, 20_000, 15_000_000) == (Decimal("0.066666667"),
                                                             Decimal("0.133333333"))
    assert junos_fill_levels(1_500_000, 150_000, 15_000_000) is None  # not in order
    assert junos_fill_levels(150_000, 16_000_000, 15_000_000) is None  # past 100 %


def test_explain_port_shows_formulas_and_sources(example):
    from netcfg.explain import explain

    fabric = example.fabric
    dev = fabric.devices["leaf-su1-r1"]
    port = dev.port("swp1s0")
    sections = {s.title: s for s in explain(fabric, dev, port, example.physics)}
    hr = sections["pfc headroom per lossless priority (sonic_spectrum)"]
    rows = {r.key: r for r in hr.rows}
    h = example.physics.ports[port]
    assert rows["size"].value == f"{h.size}B" and rows["size"].source.startswith("= ")
    assert (
        "fabric.yaml" in rows["traffic pattern mtu"].source
        or "default" in rows["traffic pattern mtu"].source
    )
    assert (
        rows["cell"].source.startswith("catalog spectrum-4: ")
        and "asic_table.j2" in rows["cell"].source
    )
    ecn = {r.key: r for r in sections["ecn class roce (egress queue)"].rows}
    assert "fabric.yaml:31:" in ecn["min"].source
    budget = {r.key: r for r in explain(fabric, dev, None, example.physics)[-2].rows}
    assert budget["queue limit"].value == f"{example.physics.budgets['leaf-su1-r1'].queue_limit}B"


def test_explain_cli_json_has_the_steps():
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-m", "netcfg.cli", "explain", "inventories/multivendor",
                        "core1", "et-0/0/0:0", "--format", "json"], cwd=root,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    hr = next(s for s in doc["sections"] if s["title"].startswith("pfc headroom"))
    steps = {row["key"]: row for row in hr["rows"]}
    assert hr["title"].endswith("(ieee_8021qbb)")
    assert steps["in flight"]["source"] == "= 9236 + 84 + 153900 + 15360 + 57920 + 9236"
    assert steps["xoff"]["value"] == "332232B"
