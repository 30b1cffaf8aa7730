"""What keeps `netcfg verify` linear at fleet size (netcfg/verify/run.py): the reports kept
packed, and each switch's config and plan made on its turn. (Each login's own known_hosts
lines: tests/deploy/test_known_hosts.py.)"""

from __future__ import annotations

from pathlib import Path

from netcfg.verify.checks import Check
from netcfg.verify.run import DeviceReport, Reports, VerifyResult


def test_reports_are_kept_packed_and_read_back_whole():
    made = [DeviceReport(f"leaf{i}", "sonic",
                         [Check("VFY004", f"leaf{i}", f"Ethernet{j}", j % 2 == 0, f"port {j}")
                          for j in range(3)], ["unreachable"] if i == 1 else [], ["PFC"], 0.5)
            for i in range(3)]
    kept = Reports(made)
    assert len(kept) == 3
    assert list(kept) == made
    assert kept[1] == made[1] and kept[-1] == made[2] and kept[0:2] == made[:2]
    [only] = Reports(made[:1])
    assert only == made[0]
    # what the exit code and the findings need is kept beside them: two failed per switch
    # (ports 1 of each: j % 2 != 0), and leaf1 could not be verified
    assert [(c.device, c.interface) for c in kept.failed()] == \
        [("leaf0", "Ethernet1"), ("leaf1", "Ethernet1"), ("leaf2", "Ethernet1")]
    assert kept.unverified() and not Reports([made[0], made[2]]).unverified()
    result = VerifyResult("f", None, kept)
    assert result.total() == len(result.checks()) == 9
    assert result.failed() == [c for d in made for c in d.checks if not c.ok]
    assert result.exit_code == 4


def test_configs_made_one_at_a_time_are_the_ones_made_together(tmp_path: Path):
    """verify makes each switch's config and plan on its turn (LazyDesired, Plans) instead
    of holding the fleet's: the same Desired as desired_configs, for a switch of every NOS,
    and a config that cannot be made stops the command up front, as before."""
    import pytest
    from deploy.deploy_cases import BY_NOS, multivendor

    from netcfg.deploy.desired import DesiredError, LazyDesired, desired_configs
    from netcfg.render.plan import PlanBuilder
    from netcfg.verify.run import Plans

    v = multivendor()
    assert v.fabric is not None and v.physics is not None
    chosen = [v.fabric.devices[name] for name in BY_NOS.values()]
    together = desired_configs(v.fabric, v.physics, chosen)
    lazy = LazyDesired(v.fabric, v.physics, chosen)
    assert list(lazy) == list(together) and len(lazy) == 5
    for name, want in together.items():
        got = lazy[name]
        assert got == want and got.reader is not None and want.reader is not None
        assert got.reader(want.text) == want.reader(want.text)
    builder = PlanBuilder(v.fabric, v.physics)
    plans = Plans(builder, chosen)
    assert {n: plans[n] for n in plans} == {d.name: builder.plan(d) for d in chosen}
    # --configs with one file missing: refused before any switch is read
    with pytest.raises(DesiredError, match="cannot read"):
        LazyDesired(v.fabric, v.physics, chosen, tmp_path)
