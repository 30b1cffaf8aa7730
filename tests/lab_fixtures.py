"""Lab fixtures for every test package (lab, deploy): a lab started in-process per test, and
NAPALM drivers that are closed in the test's own thread at teardown (a driver finalised later
by the garbage collector may otherwise run its clean-up I/O on whatever thread happens to
collect it, including the lab's)."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import napalm
import pytest

from netcfg.lab import DeviceSpec, Lab


@pytest.fixture(autouse=True)
def _quiet_client_logs() -> Iterator[None]:
    # pyeapi logs a traceback for every expected connection failure
    logging.getLogger("pyeapi").setLevel(logging.CRITICAL)
    yield


class _SkippingClock:
    """`time` as NAPALM's EOS driver sees it: its sleeps move this clock on at once.

    The driver waits up to 10 s (1 s sleeps against `time.time()`) for a configuration
    session another user holds. In the lab that session goes only when the test clears the
    fault, never by waiting, so the wait decides nothing but the test's length: the driver
    still asks the switch every (virtual) second and gives up after its own 10 s."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def sleep(self, seconds: float) -> None:
        self.skipped += seconds

    def time(self) -> float:
        return time.time() + self.skipped

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.fixture(autouse=True)
def _napalm_eos_waits_on_a_virtual_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import napalm.eos.eos

    monkeypatch.setattr(napalm.eos.eos, "time", _SkippingClock())


@pytest.fixture
def make_lab() -> Iterator[Callable[..., Lab]]:
    labs: list[Lab] = []
    before = set(threading.enumerate())

    def factory(*specs: DeviceSpec, **kwargs: Any) -> Lab:
        lab = Lab(specs, **kwargs).start()
        labs.append(lab)
        return lab

    yield factory
    for lab in labs:
        lab.stop()
    leaked = [t for t in threading.enumerate() if t not in before and t.name == "netcfg-lab"]
    assert not leaked, f"lab threads left running: {leaked}"


@pytest.fixture
def drivers() -> Iterator[Callable[..., Any]]:
    """drivers(name, lab_device, **optional_args) -> an opened-later NAPALM driver."""
    made: list[Any] = []

    def factory(name: str, device: Any, timeout: int | None = None, **optional_args: Any) -> Any:
        kwargs = device.napalm(**optional_args)
        if timeout is not None:
            kwargs["timeout"] = timeout
        driver = napalm.get_network_driver(name)(**kwargs)
        made.append(driver)
        return driver

    yield factory
    for driver in made:
        try:
            driver.close()
        except Exception:  # noqa: BLE001 - the device may be down on purpose
            pass
        if hasattr(driver, "config_session"):
            driver.config_session = None


ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Served:
    """A `netcfg lab` process: its devices file, and once stopped its exit and output."""

    devices: Path
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""


@contextmanager
def lab_process(inventory: Path, out: Path, *options: str, default_out: bool = False,
                env: dict[str, str] | None = None) -> Iterator[Served]:
    """`netcfg lab INVENTORY --out OUT OPTIONS` in its own process, as a user runs it; yields
    once the devices file exists, stops the lab with Ctrl-C (SIGINT) on exit. `default_out`:
    no `--out`, and OUT is where the lab is expected to write by default."""
    where = [] if default_out else ["--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "netcfg", "lab", str(inventory), *where,
                             *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env)
    served = Served(out)
    try:
        deadline = time.monotonic() + 180  # loading Juniper's YANG takes seconds
        while not out.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "lab did not start"
            time.sleep(0.05)
        yield served
    finally:
        proc.send_signal(signal.SIGINT)
        served.stdout, served.stderr = proc.communicate(timeout=30)
        served.returncode = proc.returncode
