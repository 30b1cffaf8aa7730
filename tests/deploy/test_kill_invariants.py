"""The invariant checker of a killed deploy, on all five NOSes: a real `netcfg push` process is
killed (SIGKILL) once its journal shows one of a bounded sample of points, and then:

- after the device's own timer the switch runs its old or its new config, never something
  between (its startup config may lag where a kill cut a confirm between its two device
  steps: only the next command can mend that);
- a `netcfg rollback` process (the next user's command, no cleanup by hand) restores the old
  config, which stays after every timer, with the startup config equal to the running one,
  no candidate or pending commit left, and the journal telling the truth
  (chaos_cases.assert_settled); a `netcfg push` process after it confirms the new one;
- nothing netcfg did not write is touched: a file of the user's beside the state directory
  and one inside it keep their bytes and modes, and nothing appears outside the state
  directory.

The sample: each NOS at a different point of the push (committing, committed, confirming),
so that together they cover each step netcfg takes on a device; the full fault matrix of
every phase runs in-process (test_chaos_*). Every request is slowed so the kill lands inside
the step the journal names; the assertions hold wherever it lands.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from netcfg.deploy.runs import Run, list_runs

from .chaos_cases import SETTLE, assert_settled, lines, where
from .cli_cases import ROOT, netcfg
from .deploy_cases import BY_NOS, MULTIVENDOR, devices_file, fleet, specs

#: (NOS, the journal event after which the push process is killed)
SAMPLE = [("eos", "committed"), ("nxos", "confirming"), ("junos", "confirming"),
          ("cumulus", "committed"), ("sonic", "committing")]


def _tree(root: Path, skip: Path) -> dict[str, tuple[int, bytes]]:
    """Every file below `root` outside `skip`: mode and bytes."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and skip not in path.parents:
            out[str(path.relative_to(root))] = (path.stat().st_mode, path.read_bytes())
    return out


def _killed_at(cmd: list[str], state: Path, point: str) -> None:
    """Run `cmd` and SIGKILL it once its journal shows `point`."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    deadline = time.monotonic() + 240
    reached = False
    while not reached and time.monotonic() < deadline and proc.poll() is None:
        journals = list(state.glob("runs/*/journal.jsonl"))
        reached = bool(journals) and f'"event": "{point}"' in journals[0].read_text()
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate()
    assert reached, f"the push never reached {point}: {out}{err}"


@pytest.mark.parametrize("nos, point", SAMPLE, ids=[f"{n}-{p}" for n, p in SAMPLE])
def test_a_killed_push_holds_every_invariant(make_lab, tmp_path, nos, point):
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    dev = lab[name]
    f = fleet(lab, [name], tmp_path)
    target, desired = f.targets[0], f.desired[name]
    before = lines(dev.running_config())

    state = tmp_path / "state"
    args = [str(MULTIVENDOR), "--connect", str(devices_file(lab, tmp_path)), "--device", name,
            "--state", str(state)]
    state.mkdir()
    os.chmod(state, 0o755)
    (state / "NOTES.md").write_text("the team's own notes\n")
    (tmp_path / "mine.txt").write_text("not netcfg's\n")
    outside = _tree(tmp_path, state)
    notes = (state / "NOTES.md").read_bytes(), state.stat().st_mode
    dev.inject("slow", delay=0.15)  # every request: a wide window inside each step
    _killed_at([sys.executable, "-m", "netcfg", "push", *args, "--revert-in", "120"],
               state, point)
    dev.clear_faults()

    (killed,) = list_runs(state)
    assert killed.final_states() == {name: point}
    # the device's own timer has run out: its old config or its new one, nothing between.
    # Its startup config may still differ (a kill between NX-OS's `configure replace commit`
    # and `copy running startup`, or SONiC's timer stop and `config save`): no timer can
    # mend that, the next netcfg command must (the rollback below, checked by assert_settled)
    lab.advance(SETTLE)
    assert where(dev, target, desired, before) in ("old", "new")

    netcfg("rollback", *args, check=0)  # the killed run's leftovers are its to clear
    back = Run.open(state, killed.id)  # a rollback is journaled in the run it undoes
    assert back.final_states() == {name: "rolled-back"}
    assert assert_settled(lab, dev, target, desired, back, before) == "old"

    pushed = netcfg("push", *args, check=0)
    assert f"{name}: confirmed" in pushed.stdout, pushed.stdout + pushed.stderr
    assert lines(dev.running_config()) != before
    if nos in ("eos", "nxos", "sonic"):  # the NOSes that keep a startup config apart
        assert lines(dev.startup_config()) == lines(dev.running_config())

    assert ((state / "NOTES.md").read_bytes(), state.stat().st_mode) == notes
    assert _tree(tmp_path, state) == outside
