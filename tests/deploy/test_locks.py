"""Device locks are exclusive through the OS: never two holders, free when the holder dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from netcfg.deploy.runs import DeviceLock, LockHeld

TRIALS = 40


def _contend(state: str, run: str, start, tried, results) -> None:
    start.wait()
    try:
        lock = DeviceLock(__import__("pathlib").Path(state), "leaf1", run).acquire()
    except LockHeld:
        lock = None
    results.put(lock is not None)
    tried.wait()  # hold it until the other one has tried too
    if lock is not None:
        lock.release()


def test_two_processes_never_both_take_a_fresh_lock(tmp_path):
    ctx = multiprocessing.get_context("fork")
    for trial in range(TRIALS):
        state = tmp_path / f"t{trial}"
        start, tried, results = ctx.Barrier(2), ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=_contend, args=(str(state), f"run{i}", start, tried, results))
                 for i in range(2)]
        for p in procs:
            p.start()
        got = [results.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        assert sorted(got) == [False, True], f"trial {trial}: {got}"


def test_a_lock_whose_record_is_not_written_yet_is_still_held(tmp_path):
    holder = DeviceLock(tmp_path, "leaf1", "run-a").acquire()
    os.truncate(holder.path, 0)  # the window between taking the lock and writing the record
    with pytest.raises(LockHeld):
        DeviceLock(tmp_path, "leaf1", "run-b").acquire()
    holder.release()
    assert DeviceLock(tmp_path, "leaf1", "run-b").acquire().stale is None


def test_the_lock_of_a_killed_process_is_free_and_named_stale(tmp_path):
    code = textwrap.dedent(f"""
        import pathlib, sys, time
        from netcfg.deploy.runs import DeviceLock
        DeviceLock(pathlib.Path({str(tmp_path)!r}), "leaf1", "crashed-run").acquire()
        print("held", flush=True)
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    with pytest.raises(LockHeld, match="crashed-run"):
        DeviceLock(tmp_path, "leaf1", "run-b").acquire()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lock = DeviceLock(tmp_path, "leaf1", "run-b").acquire()
    assert lock.stale is not None and lock.stale["run"] == "crashed-run"
    lock.release()


def test_readers_share_and_exclude_a_push(tmp_path):
    first = DeviceLock(tmp_path, "leaf1", "diff-1", shared=True).acquire()
    second = DeviceLock(tmp_path, "leaf1", "diff-2", shared=True).acquire()
    with pytest.raises(LockHeld, match="diff"):
        DeviceLock(tmp_path, "leaf1", "push").acquire()
    first.release()
    second.release()
    push = DeviceLock(tmp_path, "leaf1", "push").acquire()
    with pytest.raises(LockHeld, match="run push"):
        DeviceLock(tmp_path, "leaf1", "diff-3", shared=True).acquire()
    push.release()


def test_a_released_lock_leaves_no_stale_record(tmp_path):
    DeviceLock(tmp_path, "leaf1", "run-a").acquire().release()
    lock = DeviceLock(tmp_path, "leaf1", "run-b").acquire()
    assert lock.stale is None
    lock.release()


def test_the_switch_lock_is_the_machines_whatever_the_state(tmp_path, monkeypatch):
    """Two state directories, one switch: the second run is refused it and told which run, on
    which state, holds it; another switch (another port on the same address) is free, and
    the lock is free again once released."""
    from netcfg.deploy.runs import machine_locks, switch_key

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    switch = switch_key("127.0.0.1", 10443)
    held = DeviceLock(tmp_path / "a", "leaf1", "run-a", switch=switch).acquire()
    assert machine_locks() == tmp_path / "xdg" / "netcfg" / "locks"
    assert (machine_locks() / "127.0.0.1-10443.lock").is_file()
    with pytest.raises(LockHeld, match=rf"run run-a \(pid {os.getpid()} on .*, state "
                                        rf"{tmp_path / 'a'}\)"):
        DeviceLock(tmp_path / "b", "leaf1", "run-b", switch=switch).acquire()
    with pytest.raises(LockHeld, match="run-a"):  # a reader of the other state too
        DeviceLock(tmp_path / "b", "leaf1", "diff", shared=True, switch=switch).acquire()
    other = DeviceLock(tmp_path / "b", "leaf1", "run-b",
                       switch=switch_key("127.0.0.1", 10444)).acquire()
    other.release()
    held.release()
    DeviceLock(tmp_path / "b", "leaf1", "run-b", switch=switch).acquire().release()


def test_switch_keys_are_file_names_that_keep_addresses_apart():
    from netcfg.deploy.runs import switch_key

    assert switch_key("10.0.0.7", 443) == "10.0.0.7-443"
    assert switch_key("Leaf1.Example.NET", 830) == "leaf1.example.net-830"
    v6 = switch_key("fe80::1", 443)
    assert "/" not in v6 and ":" not in v6 and v6.startswith("fe80__1-443-")
    assert switch_key("a:b", 1) != switch_key("a/b", 1)
    assert not switch_key("../x", 1).startswith(".")


def test_pushes_share_the_fleet_lock_and_a_rollback_holds_it_alone(tmp_path):
    """Pushes of one state run side by side (shard runners); a rollback is refused while one
    runs, and a push while a rollback runs, told the rollback's pid."""
    from netcfg.deploy.runs import FleetBusy, FleetLock

    one = FleetLock(tmp_path, exclusive=False).acquire()
    two = FleetLock(tmp_path, exclusive=False).acquire()
    with pytest.raises(FleetBusy):
        FleetLock(tmp_path, exclusive=True).acquire()
    one.release()
    two.release()
    rollback = FleetLock(tmp_path, exclusive=True).acquire()
    with pytest.raises(FleetBusy) as busy:
        FleetLock(tmp_path, exclusive=False).acquire()
    assert busy.value.push_refusal().startswith(
        f"a rollback of this fabric is running (pid {os.getpid()} on ")
    rollback.release()
    FleetLock(tmp_path, exclusive=False).acquire().release()
