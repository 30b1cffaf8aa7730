"""All-pairs reachability in the twin: ICMP echo from every server NIC to every other, sent
and answered by the Linux kernels of the namespaces and forwarded along the FRR-installed
routes. One process opens a raw ICMP socket inside each NIC namespace (setns(2) around the
socket() call: a socket stays in the namespace it was created in), so 256 NICs x 255 peers
is one burst per source instead of 65,280 `ping` processes.
"""

from __future__ import annotations

import resource
import selectors
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from netcfg.twin.network import TwinError, inside

T = TypeVar("T")


@dataclass(frozen=True)
class Nic:
    name: str  # "server:port"
    netns: str
    address: str


def _socket_in(netns: str) -> socket.socket:
    with inside(netns):
        sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    sock.setblocking(False)
    return sock


def _checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    total = (total >> 16) + (total & 0xFFFF)
    total += total >> 16
    return ~total & 0xFFFF


def _echo(ident: int, seq: int) -> bytes:
    header = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
    payload = b"netcfg-twin"
    return struct.pack("!BBHHH", 8, 0, _checksum(header + payload), ident, seq) + payload


def reach(nics: list[Nic], pairs: list[tuple[int, int]], rounds: int = 5, chunk: int = 32,
          pace_s: float = 0.05, settle_s: float = 1.0,
          limit_s: float = 30.0) -> set[tuple[int, int]]:
    """Which (source, destination) index pairs got an echo reply.

    Echoes go out `chunk` at a time; after each chunk, replies are read until the chunk is
    answered or `pace_s` passes (a burst of thousands would overflow the kernel's per-CPU
    backlog, net.core.netdev_max_backlog, and look like loss). Replies arriving later still
    count: at the end of a round, reading goes on until nothing has arrived for `settle_s`
    (at most `limit_s`), so a slow, loaded machine delays the answer but does not change it.
    Unanswered pairs are asked again while a round still adds answers (a first packet may
    wait on ARP), up to `rounds` rounds. A pair a router answers with "net unreachable" has
    no route on its path: it is settled as unanswered at once, not waited for or asked again
    (network.ROUTE_ERROR_COST)."""
    sources = sorted({src for src, _ in pairs})
    _allow_files(len(sources) + FILES_BESIDES)
    socks: dict[int, socket.socket] = {}
    selector = selectors.DefaultSelector()  # epoll: select(2) stops at descriptor 1,023
    answered: set[tuple[int, int]] = set()
    no_route: set[tuple[int, int]] = set()
    wanted = set(pairs)
    try:
        for src in sources:  # a reply comes back to the socket its echo left from
            socks[src] = _socket_in(nics[src].netns)
            selector.register(socks[src], selectors.EVENT_READ, (src, socks[src]))
        for _ in range(rounds):
            todo = [p for p in pairs if p not in answered and p not in no_route]
            if not todo:
                break
            before = len(answered)
            for start in range(0, len(todo), chunk):
                batch = todo[start:start + chunk]
                for src, dst in batch:
                    try:
                        socks[src].sendto(_echo(src & 0xFFFF, dst & 0xFFFF),
                                          (nics[dst].address, 0))
                    except OSError:
                        pass  # no route: the pair stays unanswered
                _collect(selector, answered, no_route, set(batch), pace_s, pace_s)
            _collect(selector, answered, no_route, wanted, limit_s, settle_s)
            if len(answered) == before:
                break
    finally:
        selector.close()
        for sock in socks.values():
            sock.close()
    return answered & wanted


#: descriptors the twin's process holds besides the probe's sockets (namespaces, pipes, vty
#: connections), kept free under the open-file limit
FILES_BESIDES = 64


def _allow_files(count: int) -> None:
    """Raise this process's limit of open files (the soft one) to `count`: all pairs of
    2,048 NICs hold 2,048 sockets, the usual soft limit is 1,024. A hard limit below it is
    the machine's setting to change, said in one line."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= count:
        return
    if hard != resource.RLIM_INFINITY and hard < count:
        raise TwinError(f"the probe needs {count} open files and this process may hold at "
                        f"most {hard} (ulimit -Hn): raise it, or send from fewer NICs "
                        "(--sources)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


#: ICMP types and the "destination unreachable" code a router sends without a route
_ECHO_REPLY, _UNREACHABLE, _ECHO, _NET_UNREACHABLE = 0, 3, 8, 0


def _collect(selector: selectors.BaseSelector,
             answered: set[tuple[int, int]], no_route: set[tuple[int, int]],
             batch: set[tuple[int, int]], wait_s: float, idle_s: float) -> None:
    """Read replies until every pair of `batch` is answered or refused for want of a route,
    `wait_s` passes, or nothing arrives for `idle_s`."""
    waiting = batch - answered - no_route
    now = time.monotonic()
    deadline, last = now + wait_s, now
    while waiting and now < deadline and now - last < idle_s:
        ready = selector.select(0.05)
        now = time.monotonic()
        if ready:
            last = now
        for key, _events in ready:
            src, sock = key.data
            while True:
                try:
                    packet = sock.recv(2048)
                except BlockingIOError:
                    break
                ihl = (packet[0] & 0x0F) * 4
                kind, code, _sum, ident, seq = struct.unpack("!BBHHH", packet[ihl:ihl + 8])
                if kind == _ECHO_REPLY and ident == src & 0xFFFF:
                    answered.add((src, seq))
                    waiting.discard((src, seq))
                elif kind == _UNREACHABLE and code == _NET_UNREACHABLE:
                    # the error quotes our echo: its IP header, then its first 8 bytes
                    inner = packet[ihl + 8:]
                    quoted = (inner[0] & 0x0F) * 4 if inner else 0
                    if len(inner) < quoted + 8:
                        continue
                    kind, _code, _sum, ident, seq = struct.unpack(
                        "!BBHHH", inner[quoted:quoted + 8])
                    if kind == _ECHO and ident == src & 0xFFFF:
                        no_route.add((src, seq))
                        waiting.discard((src, seq))


#: how many times a failed check is asked again, each after the fabric settled
RECHECKS = 3


def unanswered(nics: list[Nic], pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs whose echo gets no reply."""
    answered = reach(nics, pairs)
    return [p for p in pairs if p not in answered]


def recheck(found: list[T], check: Callable[[], list[T]],
            settled: Callable[[], bool]) -> list[T]:
    """What a check still finds once the fabric has settled. On a busy machine a router can
    miss BFD packets or keepalives and drop a session for a few seconds; it comes back by
    itself. So a failed check is asked again, each time after every session is established
    and every route is held again (`settled`), up to RECHECKS times: what persists is real,
    and a fabric that never converged is not asked again. A recheck that finds exactly what
    the check before it found, with the fabric settled in between, is that persistence: no
    flap gives the same failures twice, so it is not asked a third time."""
    for _ in range(RECHECKS):
        if not found or not settled():
            break
        again = check()
        if again == found:
            break
        found = again
    return found
