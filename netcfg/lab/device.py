"""What every emulated device has, whatever its NOS: identity, credentials, listeners,
configuration stores, a fault plan, a request log, and reboot/refuse behaviour.

A NOS emulator subclasses `Emulator`, opens its listeners in `start()` with `serve_https` /
`serve_ssh`, and implements the configuration stores and its protocol. Everything here runs on
the lab's event loop; tests reach it through `netcfg.lab.LabDevice`, which marshals calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from netcfg.lab.faults import Fault, FaultKind, FaultPlan

if TYPE_CHECKING:
    from netcfg.lab.clock import VirtualClock
    from netcfg.lab.trust import DeviceTrust, TrustStore


class Dropped(Exception):
    """Raised inside a protocol handler: close the client's connection without a reply."""


@dataclass
class DeviceSpec:
    """What the lab needs to know to emulate one device."""

    name: str
    nos: str
    username: str = "admin"
    password: str = "admin"
    #: front-panel interfaces the device reports (from the platform/topology); empty = a few
    interfaces: list[str] = field(default_factory=list)
    model: str = ""
    #: NOS release the device claims; changes version-dependent output (e.g. EOS sessions JSON)
    version: str = ""
    #: configuration the device boots with (running = startup); empty = the emulator's minimum
    startup_config: str = ""
    #: reject lines the NOS grammar does not know (False: accept any line in a known mode)
    strict: bool = True
    #: listen address; None lets the lab choose (127.0.0.1, or a per-device 127.x when needed)
    address: str | None = None
    #: fixed ports per listener name (e.g. {"https": 8443}); missing = any free port
    ports: dict[str, int] = field(default_factory=dict)
    #: NOS-specific switches (e.g. Junos {"netconf_1_1": False}); see each emulator
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Endpoint:
    """One listener of a device: `proto` is "https", "http" or "ssh"."""

    proto: str
    host: str
    port: int


@dataclass(frozen=True)
class LogEntry:
    """One request as the device saw it: lab time, listener, and the command/RPC text."""

    time: float
    channel: str
    text: str


class Listener:
    """A server socket that can be closed (refused connections) and reopened on the same port."""

    def __init__(self, proto: str, host: str, port: int) -> None:
        self.proto, self.host, self.port = proto, host, port

    async def open(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def shut(self) -> None:  # pragma: no cover - interface
        """Stop accepting and abort every open connection, before returning.

        Synchronous on purpose: a device that reboots or starts refusing inside a request
        must not accept the client's very next connection (a connection queued on a listening
        socket that closes later is reset, not refused, and the client sees the wrong error).
        """
        raise NotImplementedError

    async def close(self) -> None:  # pragma: no cover - interface
        """`shut()`, then wait until the server socket is fully closed."""
        raise NotImplementedError

    def drop_all(self) -> None:  # pragma: no cover - interface
        """Abort every open client connection."""
        raise NotImplementedError


@dataclass
class LabContext:
    """Shared by all devices of one lab: the clock, the trust store and the loop."""

    clock: VirtualClock
    trust: TrustStore
    loop: asyncio.AbstractEventLoop
    workdir: Any  # pathlib.Path of the private directory


class Emulator:
    """Base class of a NOS emulator. Subclasses set `nos` and `napalm_driver`."""

    nos: ClassVar[str] = ""
    #: NAPALM driver name a client should use (None: netcfg's own driver, not NAPALM core)
    napalm_driver: ClassVar[str | None] = None
    #: True when the protocol needs a fixed port (NX-OS SCP on 22), hence an address of its own
    needs_own_address: ClassVar[bool] = False

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        self.spec = spec
        self.name = spec.name
        self.ctx = ctx
        self.clock = ctx.clock
        self.address = address
        self.trust: DeviceTrust = ctx.trust.issue(spec.name, address)
        self.faults = FaultPlan()
        self.log: list[LogEntry] = []
        self.listeners: dict[str, Listener] = {}
        self.boot_time = self.clock.time()
        self.booting = False
        self._unhang = asyncio.Event()
        self._refusing = False

    # --- to implement -----------------------------------------------------------------
    async def start(self) -> None:
        """Open the listeners (use `serve_https` / `serve_ssh`)."""
        raise NotImplementedError

    def running_config(self) -> str:
        raise NotImplementedError

    def startup_config(self) -> str:
        raise NotImplementedError

    def candidate_config(self) -> str | None:
        """The pending candidate/session configuration, None when there is none."""
        return None

    def on_reboot(self) -> None:
        """Reset volatile state: running <- startup, sessions and locks gone."""
        raise NotImplementedError

    def on_fault_armed(self, fault: Fault) -> None:
        """React to a stateful fault (lock held, stale session) when it is armed."""

    def on_faults_cleared(self) -> None:
        """Undo stateful faults."""

    def napalm_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for the NAPALM driver class (hostname, username, password,
        timeout, optional_args) that reach this device with verification on."""
        raise NotImplementedError

    def connection(self) -> dict[str, Any]:
        """Connection details for an inventory file: address, ports, driver, trust paths."""
        return {
            "nos": self.nos,
            "driver": self.napalm_driver,
            "address": self.address,
            "username": self.spec.username,
            "password": self.spec.password,
            "endpoints": {k: {"proto": v.proto, "port": v.port} for k, v in self.listeners.items()},
            "ca_file": str(self.ctx.trust.ca_path),
            "known_hosts": str(self.ctx.trust.known_hosts_path),
            "host_key": self.trust.host_key_public,
        }

    # --- helpers for subclasses ----------------------------------------------------------
    @property
    def uptime(self) -> float:
        return max(0.0, self.clock.time() - self.boot_time)

    @property
    def hostname(self) -> str:
        return self.spec.name

    def record(self, channel: str, text: str) -> None:
        self.log.append(LogEntry(self.clock.time(), channel, text))

    def check_password(self, username: str, password: str) -> bool:
        """Credentials check, honouring an armed auth failure."""
        if self.faults.take("auth", {FaultKind.AUTH_FAILURE}) is not None:
            return False
        return (username == self.spec.username and password == self.spec.password
                and self.user_configured(username))

    def user_configured(self, username: str) -> bool:
        """Whether the running config still lets this user log in (a replace that drops the
        login locks the client out, as on a device). Emulators that model users override it."""
        return True

    async def gate(self, phase: str = "request") -> None:
        """Apply slow/hang faults before answering a request."""
        fault = self.faults.take(phase, {FaultKind.SLOW, FaultKind.HANG})
        if fault is None:
            return
        if fault.kind == FaultKind.SLOW:
            await asyncio.sleep(fault.delay)
            return
        self._unhang.clear()
        await self._unhang.wait()
        raise Dropped()

    def apply_fault(self, phase: str) -> Fault | None:
        """Consume a fault on a configuration operation and act on the generic kinds.

        Returns COMMIT_ERROR and DROP_AFTER_APPLY faults for the emulator to handle (it knows
        its NOS's error text and when "applied" is); raises `Dropped` for drop-before-apply
        and reboot (after rebooting).
        """
        fault = self.faults.take(phase, {FaultKind.DROP_BEFORE_APPLY, FaultKind.DROP_AFTER_APPLY,
                                         FaultKind.COMMIT_ERROR, FaultKind.REBOOT_MID_COMMIT})
        if fault is None:
            return None
        if fault.kind == FaultKind.DROP_BEFORE_APPLY:
            raise Dropped()
        if fault.kind == FaultKind.REBOOT_MID_COMMIT:
            self.reboot(fault.downtime)
            raise Dropped()
        return fault

    # --- lifecycle used by the lab -------------------------------------------------------
    def arm(self, fault: Fault) -> None:
        self.faults.add(fault)
        if fault.kind == FaultKind.REFUSED:
            self._refusing = True
            self._shut_listeners()
        self.on_fault_armed(fault)

    def clear_faults(self) -> None:
        self.faults.clear()
        self._unhang.set()
        self.on_faults_cleared()
        if self._refusing:
            self._refusing = False
            if not self.booting:
                self._spawn(self._open_listeners())

    def reboot(self, downtime: float = 120.0) -> None:
        """Lose volatile state now; refuse connections for `downtime` lab seconds."""
        self.booting = True
        self.on_reboot()
        self._shut_listeners()
        self.clock.call_later(downtime, self._boot_done)

    def _boot_done(self) -> None:
        self.booting = False
        self.boot_time = self.clock.time()
        if not self._refusing:
            self._spawn(self._open_listeners())

    async def stop(self) -> None:
        self._unhang.set()
        for listener in self.listeners.values():
            listener.drop_all()
        await self._close_listeners()

    async def _close_listeners(self) -> None:
        for listener in self.listeners.values():
            await listener.close()

    def _shut_listeners(self) -> None:
        """Refuse from now on (see `Listener.shut`); the sockets finish closing in a task."""
        for listener in self.listeners.values():
            listener.shut()
        self._spawn(self._close_listeners())

    async def _open_listeners(self) -> None:
        for listener in self.listeners.values():
            await listener.open()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        _TASKS.add(task)
        task.add_done_callback(_TASKS.discard)

    async def serve_https(self, name: str, handler: Callable[..., Awaitable[Any]],
                          tls: bool = True) -> Listener:
        """Serve `handler(request)` (aiohttp) on this device's address."""
        from netcfg.lab.transport_http import HttpListener

        port = self.spec.ports.get(name, 0)
        listener = HttpListener(self, handler, tls, self.address, port)
        await listener.open()
        self.listeners[name] = listener
        return listener

    async def serve_ssh(self, name: str, port: int | None = None, **kwargs: Any) -> Listener:
        """Serve SSH (shell, subsystems, SCP) on this device's address; see transport_ssh."""
        from netcfg.lab.transport_ssh import SshListener

        listener = SshListener(self, self.address, self.spec.ports.get(name, port or 0), **kwargs)
        await listener.open()
        self.listeners[name] = listener
        self.ctx.trust.add_known_host(self.address, listener.port, self.trust.host_key_public)
        return listener


#: fire-and-forget tasks (listener close/open) kept referenced until done
_TASKS: set[asyncio.Future[Any]] = set()


async def settle() -> None:
    """Wait until every listener open/close spawned by a fault, reboot or timer has finished,
    so a caller that just advanced the clock finds the device in its new state. Only this
    loop's tasks: a lab stopped earlier in the same process (each lab runs its own loop) may
    have left tasks that will never finish; they are dropped, not awaited from another loop."""
    loop = asyncio.get_running_loop()
    while True:
        for task in [t for t in _TASKS if t.get_loop() is not loop and t.get_loop().is_closed()]:
            _TASKS.discard(task)
        mine = [t for t in _TASKS if t.get_loop() is loop]
        if not mine:
            return
        await asyncio.gather(*mine, return_exceptions=True)
