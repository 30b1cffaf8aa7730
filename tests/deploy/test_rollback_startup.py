"""A rollback killed between its confirm's two device steps (NX-OS: `configure replace commit`,
then `copy running-config startup-config`; SONiC: the revert timer stopped, then `config save
-y`) leaves the switch running its backup with the push's config still in its startup config,
and nothing in the journal after the push's `confirmed`: a reboot would bring the pushed config
back. The next `netcfg rollback` finds nothing to load (the running config is the backup
already) and still makes the startup config equal to it, as a confirmed rollback leaves it.

The kill is the process ending at that step: an exception no handler of netcfg's catches,
raised where the save would be sent, so nothing after it runs or is journaled (as after
SIGKILL: the connection closes, the device lock is the kernel's and goes with it). (EOS confirms
with one request, `configure session ... commit` and `write memory` together, which no kill
splits.)"""

from __future__ import annotations

import threading

import pytest
from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deploy.engine import push_device, restore_device
from netcfg.deploy.runs import Run
from netcfg.vendors.nxos.deploy import NxosDeploy
from netcfg.vendors.sonic.driver import SonicDriver

from .chaos_cases import OPTS, SETTLE, lines
from .deploy_cases import BY_NOS, MULTIVENDOR, devices_file, fleet, specs


class Killed(BaseException):
    """The process dies here."""


def _killed_at_save(monkeypatch: pytest.MonkeyPatch, nos: str) -> None:
    if nos == "nxos":
        def save(self, driver):  # noqa: ANN001, ANN202 - NxosDeploy.save's
            raise Killed()

        monkeypatch.setattr(NxosDeploy, "save", save)
        return
    must = SonicDriver._must

    def saving(self, command, error):  # noqa: ANN001, ANN202 - SonicDriver._must's
        if command == "sudo config save -y":
            raise Killed()
        return must(self, command, error)

    monkeypatch.setattr(SonicDriver, "_must", saving)


@pytest.mark.parametrize("nos", ["nxos", "sonic"])
def test_the_next_rollback_saves_what_a_killed_rollback_left_unsaved(make_lab, tmp_path,
                                                                      monkeypatch, nos):
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    dev, target = lab[name], f.targets[0]
    before = lines(dev.running_config())
    state = tmp_path / "state"
    run = Run(state)
    assert push_device(target, f.desired[name], run, OPTS, threading.Event()).status == \
        "confirmed"
    pushed = lines(dev.startup_config())
    assert pushed != before

    with monkeypatch.context() as m:
        _killed_at_save(m, nos)
        with pytest.raises(Killed):
            restore_device(target, run.saved("backup", name) or "", run, OPTS)
    lab.advance(SETTLE)  # no timer is left to change anything
    assert lines(dev.running_config()) == before
    assert lines(dev.startup_config()) == pushed  # what a reboot would bring back
    assert run.final_states()[name] == "confirmed"  # the killed rollback journaled nothing

    result = CliRunner().invoke(main, [
        "rollback", str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)),
        "--state", str(state), "--device", name, "--format", "json"])
    assert result.exit_code == 0, result.output
    lab.advance(SETTLE)
    assert lines(dev.running_config()) == before
    assert lines(dev.startup_config()) == before
    assert run.final_states()[name] == "rolled-back"


def _set_startup(emulator, text: str) -> None:  # noqa: ANN001 - the lab's emulator
    """The startup config as a push killed between its confirm's two device steps leaves it."""
    if hasattr(emulator, "write_file") and hasattr(emulator, "timers"):  # SONiC's saved file
        from netcfg.lab.sonic.emulator import SAVED_CONFIG

        emulator.write_file(SAVED_CONFIG, text)
    else:
        emulator.startup = text


@pytest.mark.parametrize("nos", ["eos", "nxos", "sonic"])
def test_a_rollback_after_a_push_killed_mid_confirm_leaves_startup_equal(make_lab, tmp_path,
                                                                        nos):
    """The push's journal ends at `confirming` (the process died there), the switch runs the
    new config with its startup config still the old one (what the NX-OS and SONiC confirms'
    second step had not saved yet): `netcfg rollback` restores the backup and saves it, so
    running and startup are the old config again."""
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    dev, target = lab[name], f.targets[0]
    before, old_startup = lines(dev.running_config()), dev.startup_config()
    run = Run(tmp_path / "state")
    assert push_device(target, f.desired[name], run, OPTS, threading.Event()).status == \
        "confirmed"
    dev.do(lambda emu: _set_startup(emu, old_startup))
    run.record(name, "confirming")  # as the killed run's journal ends
    assert lines(dev.running_config()) != before == lines(dev.startup_config())

    result = CliRunner().invoke(main, [
        "rollback", str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)),
        "--state", str(tmp_path / "state"), "--device", name])
    assert result.exit_code == 0, result.output
    lab.advance(SETTLE)
    assert lines(dev.running_config()) == before == lines(dev.startup_config())
