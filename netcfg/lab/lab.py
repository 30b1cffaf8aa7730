"""The lab: one asyncio loop, in a background thread, serving any number of emulated devices.

`Lab` is the control API tests and `netcfg lab` use from their own thread: start/stop, the
devices' connection details, faults, the clock, and each device's configuration stores. Every
call is marshalled onto the lab's loop, so emulator state is only ever touched by one thread.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from netcfg.lab.clock import VirtualClock
from netcfg.lab.device import DeviceSpec, Emulator, LabContext, LogEntry
from netcfg.lab.faults import Fault, FaultKind
from netcfg.lab.registry import emulator_class
from netcfg.lab.trust import TrustStore

T = TypeVar("T")
_CALL_TIMEOUT = 60.0


class LabDevice:
    """Thread-safe handle on one emulated device."""

    def __init__(self, lab: Lab, emulator: Emulator) -> None:
        self._lab = lab
        self._emu = emulator
        self.name = emulator.name
        self.nos = emulator.nos
        self.address = emulator.address
        self.username = emulator.spec.username
        self.password = emulator.spec.password
        self.ca_file = str(lab.trust.ca_path)
        self.known_hosts = str(lab.trust.known_hosts_path)
        self.host_key = emulator.trust.host_key_public
        self.cert_file = str(emulator.trust.cert)

    @property
    def endpoints(self) -> dict[str, tuple[str, int]]:
        """Listener name -> (proto, port)."""
        return {k: (v.proto, v.port) for k, v in self._emu.listeners.items()}

    def port(self, listener: str) -> int:
        return self._emu.listeners[listener].port

    def napalm(self, **optional_args: Any) -> dict[str, Any]:
        """Keyword arguments for the NAPALM driver class, trusting this lab's CA/host keys."""
        kwargs = self._lab.call(self._emu.napalm_kwargs)
        kwargs["optional_args"].update(optional_args)
        return kwargs

    def inject(self, kind: FaultKind | str, **options: Any) -> None:
        """Arm a fault (see `Fault` for options: phase, times, delay, message, downtime)."""
        fault = Fault(FaultKind(kind), **options)
        self._lab.call(self._emu.arm, fault)

    def clear_faults(self) -> None:
        self._lab.call(self._emu.clear_faults)

    def reboot(self, downtime: float = 120.0) -> None:
        self._lab.call(self._emu.reboot, downtime)

    def running_config(self) -> str:
        return self._lab.call(self._emu.running_config)

    def startup_config(self) -> str:
        return self._lab.call(self._emu.startup_config)

    def candidate_config(self) -> str | None:
        return self._lab.call(self._emu.candidate_config)

    def log(self) -> list[LogEntry]:
        return self._lab.call(lambda: list(self._emu.log))

    def do(self, fn: Callable[[Emulator], T]) -> T:
        """Run `fn(emulator)` on the lab loop (for NOS-specific inspection in tests)."""
        return self._lab.call(fn, self._emu)


class Lab:
    """Serve `specs` on loopback. Use as a context manager, or `start()` / `stop()`.

    realtime: lab time follows the wall clock (for `netcfg lab`); otherwise it moves only with
    `advance()`. directory: where trust material goes (default: a new private temp dir).
    """

    def __init__(self, specs: Iterable[DeviceSpec], *, realtime: bool = False,
                 directory: str | Path | None = None) -> None:
        self.specs = list(specs)
        names = [s.name for s in self.specs]
        if len(set(names)) != len(names):
            raise ValueError("device names must be unique")
        self.clock = VirtualClock(realtime=realtime)
        self.trust = TrustStore(directory)
        self.devices: dict[str, LabDevice] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._emulators: list[Emulator] = []
        # a private 127.x.0.0/16 per lab for devices that need their own address (NX-OS: :22)
        self._own_prefix = f"127.{random.randint(100, 250)}."
        self._own_next = 0

    # --- lifecycle ------------------------------------------------------------------------
    def start(self) -> Lab:
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(ready.set)
            loop.run_forever()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="netcfg-lab", daemon=True)
        self._thread.start()
        ready.wait()
        self.clock.bind(loop)
        try:
            self._run(self._start_all())
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        try:
            self._run(self._stop_all())
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=30)
            loop.close()
            self._loop = self._thread = None
            self.trust.close()

    def __enter__(self) -> Lab:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __getitem__(self, name: str) -> LabDevice:
        return self.devices[name]

    # --- control ---------------------------------------------------------------------------
    def advance(self, seconds: float) -> None:
        """Move lab time forward; due timers fire, and the listeners they reopen or close are
        done, before this returns (no race with a client connecting right after)."""
        from netcfg.lab.device import settle

        async def run() -> None:
            self.clock.advance(seconds)
            await settle()

        self._run(run())

    def time(self) -> float:
        return self.call(self.clock.time)

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the lab loop and return its result."""
        async def wrapper() -> T:
            return fn(*args)

        return self._run(wrapper())

    def inventory(self) -> dict[str, Any]:
        """Connection details of every device (see docs/lab.md for the format)."""
        return {
            "lab": {"ca_file": str(self.trust.ca_path),
                    "known_hosts": str(self.trust.known_hosts_path),
                    "trust_dir": str(self.trust.path)},
            "devices": self.call(lambda: {e.name: e.connection() for e in self._emulators}),
        }

    # --- internals ----------------------------------------------------------------------------
    def _run(self, coro: Any) -> Any:
        assert self._loop is not None, "lab is not running"
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result(_CALL_TIMEOUT)

    def _address_for(self, spec: DeviceSpec, cls: type[Emulator]) -> str:
        if spec.address:
            return spec.address
        if not cls.needs_own_address:
            return "127.0.0.1"
        high, low = divmod(self._own_next, 254)
        if high > 255:
            raise ValueError(f"{spec.name}: the lab has at most {256 * 254} addresses for "
                             f"{cls.nos} devices (they need port 22 to themselves)")
        self._own_next += 1
        return f"{self._own_prefix}{high}.{low + 1}"

    async def _start_all(self) -> None:
        loop = asyncio.get_running_loop()
        ctx = LabContext(self.clock, self.trust, loop, self.trust.path)
        for spec in self.specs:
            cls = emulator_class(spec.nos)
            emulator = cls(spec, ctx, self._address_for(spec, cls))
            self._emulators.append(emulator)
            await emulator.start()
            self.devices[spec.name] = LabDevice(self, emulator)

    async def _stop_all(self) -> None:
        self.clock.close()
        for emulator in self._emulators:
            await emulator.stop()
        # let aborted transports finish their callbacks before the loop stops
        await asyncio.sleep(0)
