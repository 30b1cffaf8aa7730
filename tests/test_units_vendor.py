"""Watchdog times in whole poll intervals, the one rounding every NOS shares (arithmetic by
hand: 200 ms at 100 ms polls is 2 polls; 250 ms needs 3, since 2 would fire at 200 ms)."""

from netcfg.vendors.units import whole_polls


def test_whole_polls_never_fire_early():
    assert whole_polls(200, 100) == 2
    assert whole_polls(250, 100) == 3
    assert whole_polls(30, 100) == 1
    assert whole_polls(0, 100) == 1
