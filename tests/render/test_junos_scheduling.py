"""Junos strict-high queues are shaped, as Juniper recommends.

Outside truth: Juniper, "Defining CoS Queue Scheduling Priority" (QFX): "We recommend that you
always apply a shaping rate to strict-high priority queues to prevent them from starving other
queues"; the share is the one Juniper's RoCE configlet gives its strict-high CNP scheduler
(Apstra 6.1, "Create and Import a DCQCN Configlet": `s2-cnp { transmit-rate percent 5;
priority strict-high; }`), written here by hand. The statement's spelling is checked against
Juniper's YANG with every other line (tests/render/test_junos_yang.py)."""

from __future__ import annotations

from render_cases import ROOT

from netcfg.vendors.junos.syntax import statements

GOLDEN = ROOT / "tests" / "render" / "golden" / "junos"
#: Juniper's CNP share, percent of the port (module docstring)
CNP_SHARE = "5"


def _schedulers(text: str) -> dict[str, set[tuple[str, ...]]]:
    out: dict[str, set[tuple[str, ...]]] = {}
    for s in statements(text):
        if s[:2] == ("class-of-service", "schedulers") and len(s) > 3:
            out.setdefault(s[2], set()).add(s[3:])
    return out


def test_every_strict_high_queue_is_shaped():
    files = sorted(GOLDEN.glob("*.conf"))
    assert files
    for path in files:
        schedulers = _schedulers(path.read_text())
        strict = {n for n, lines in schedulers.items() if ("priority", "strict-high") in lines}
        assert "S-cnp" in strict, path.name
        for name in strict:
            assert ("shaping-rate", "percent", CNP_SHARE) in schedulers[name], (path.name, name)
        for name in set(schedulers) - strict:  # ETS queues keep their weight, unshaped
            assert not any(line[0] == "shaping-rate" for line in schedulers[name])
