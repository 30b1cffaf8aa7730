"""A waiver means the same to every command: a finding the intent waives (with its reason)
fails neither `validate` nor `render` (nor `push`, which validates the same way), is listed as
waived, and lint still counts the waiver as used."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lint.cases import EXAMPLE, write
from netcfg.cli import main
from netcfg.lint.run import lint

#: resilient hashing: no NOS renders it, so CAP008 is an error on every device
RESILIENT = EXAMPLE.replace("ecmp:\n", "ecmp:\n  resilient: true\n", 1)
WAIVER = ('waivers:\n  - rule: CAP008\n    devices: ["*"]\n'
          '    reason: "flowlet hashing configured by hand until netcfg renders it"\n')


def test_the_unwaived_error_fails_validate_and_render(tmp_path):
    assert "resilient: true" in RESILIENT
    path = write(tmp_path, RESILIENT)
    runner = CliRunner()
    assert runner.invoke(main, ["validate", str(path)]).exit_code == 1
    rendered = runner.invoke(main, ["render", str(path), "--out", str(tmp_path / "out")])
    assert rendered.exit_code == 1 and "CAP008" in rendered.output


def test_a_waived_error_fails_nothing_and_is_listed(tmp_path):
    path = write(tmp_path, RESILIENT + WAIVER)
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "waived error: " in checked.output and "CAP008" in checked.output
    assert "flowlet hashing configured by hand" in checked.output
    report = json.loads(runner.invoke(main, ["validate", str(path), "--format", "json"]).output)
    assert report["ok"] is True and not any(f["rule"] == "CAP008" for f in report["findings"])
    assert {f["rule"] for f in report["waived"]} == {"CAP008"}

    out = tmp_path / "out"
    rendered = runner.invoke(main, ["render", str(path), "--out", str(out)])
    assert rendered.exit_code == 0, rendered.output
    assert "waived by the intent" in rendered.output and any(out.iterdir())

    result = lint(path)
    hits = [c for c in result.results if c.finding.rule == "CAP008"]
    assert hits and all(c.waived for c in hits)
    assert not [c for c in result.results if c.finding.rule.startswith("SUP")]


def test_a_waiver_for_other_devices_waives_nothing_there(tmp_path):
    scoped = WAIVER.replace('devices: ["*"]', 'devices: ["no-such-device-*"]')
    path = write(tmp_path, RESILIENT + scoped)
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert checked.exit_code == 1 and "waived" not in checked.output


def test_a_topology_error_is_not_waivable(tmp_path):
    """A fabric that does not fit (uplinks that do not divide over the spines) leaves nothing
    to derive physics or configs from: a waiver of its rule changes nothing, and validate and
    render fail in one line each."""
    from pathlib import Path

    case = Path(__file__).resolve().parents[1] / "bad_intents" / \
        "45-uplinks-not-divisible-by-spines" / "fabric.yaml"
    text = case.read_text() + ('waivers:\n  - rule: TOP004\n    devices: ["*"]\n'
                               '    reason: "we know"\n')
    path = write(tmp_path, text)
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(path)])
    assert checked.exit_code == 1 and "TOP004" in checked.output
    assert "waived" not in checked.output and "Traceback" not in checked.output
    rendered = runner.invoke(main, ["render", str(path), "--out", str(tmp_path / "out")])
    assert rendered.exit_code == 1 and not (tmp_path / "out").exists()
