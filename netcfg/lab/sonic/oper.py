"""SONiC operational state for the lab: CONFIG_DB's facts for the wiring (ports, addresses,
the BGP speaker and its neighbours), and the PFC watchdog, PFC and queue counter tables of
SONiC's own tools, answered from CONFIG_DB and the wiring's PFC faults.

The tables are printed as sonic-utilities prints them (tabulate's `simple` format, right
aligned: pfcwd/main.py, scripts/pfcstat, scripts/queuestat); tests/verify checks the printer
byte for byte on sonic-utilities' own expected outputs. What the lab models:
- `pfcwd show stats`: the watchdog watches queue n of a port that has a PFC_WD entry and n in
  PORT_QOS_MAP's `pfcwd_sw_enable` (else `pfc_enable`); a `pfc_off` fault on the port leaves
  its queues unwatched (N/A), a `pfc_storm` fault puts its lossless queues in `stormed`;
- `show pfc counters`: zero, except a stormed port, which receives 1,000 pause frames on its
  lossless priorities between two readings;
- `show queue counters`: zero, except a port with `lossless_drops`, whose lossless queues drop
  100 packets between two readings.
Counters move per reading, not per second, so a check over an interval sees the same whatever
the machine's load.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from netcfg.lab.oper import ConfigFacts, NeighborFacts, PortFacts, Wiring, answered

if TYPE_CHECKING:
    from netcfg.lab.sonic.emulator import SonicEmulator

PAUSES_PER_READING = 1000
DROPS_PER_READING = 100


#: the CONFIG_DB tables `facts` reads
FACT_TABLES = ("DEVICE_METADATA", "PORT", "INTERFACE", "LOOPBACK_INTERFACE", "STATIC_ROUTE",
               "BGP_NEIGHBOR")


def inputs(dev: SonicEmulator) -> object:
    """What `facts` reads (the lab's Wiring keeps the facts while this stays equal)."""
    return dev.hostname, [dev.running.get(t) for t in FACT_TABLES]


def facts(dev: SonicEmulator) -> ConfigFacts:
    db = dev.running
    meta = db.get("DEVICE_METADATA", {}).get("localhost", {})
    out = ConfigFacts(hostname=dev.hostname)
    asn = str(meta.get("bgp_asn", ""))
    out.asn = int(asn) if asn.isdigit() else None
    for name, port in db.get("PORT", {}).items():
        mtu, speed = str(port.get("mtu", "")), str(port.get("speed", ""))
        out.ports[name] = PortFacts(shutdown=port.get("admin_status", "down") != "up",
                                    mtu=int(mtu) if mtu.isdigit() else None,
                                    speed=int(speed) if speed.isdigit() else None)
    for key in db.get("INTERFACE", {}):
        name, _, prefix = key.partition("|")
        if prefix and name in out.ports:
            out.ports[name].address = prefix
    for key in db.get("LOOPBACK_INTERFACE", {}):
        _, _, prefix = key.partition("|")
        if prefix:
            out.router_id = out.router_id or str(ipaddress.ip_interface(prefix).ip)
            out.networks += 1
    # SONiC announces what netcfg renders as advertised blackhole routes (the server blocks)
    out.networks += sum(1 for r in db.get("STATIC_ROUTE", {}).values()
                        if r.get("advertise") == "true")
    for address, n in db.get("BGP_NEIGHBOR", {}).items():
        asn_n = str(n.get("asn", ""))
        out.neighbors[address.partition("|")[2] or address] = NeighborFacts(
            int(asn_n) if asn_n.isdigit() else None, str(n.get("name", "")),
            n.get("admin_status", "up") != "up")
    return out


@answered
def run(dev: SonicEmulator, wiring: Wiring, argv: list[str]) -> str | None:
    """The output of one shell command, None if not ours."""
    words = [a for a in argv if not a.startswith("-")]
    if words[:3] == ["pfcwd", "show", "stats"]:
        return _pfcwd_stats(dev, wiring, empty="-e" in argv or "--empty" in argv)
    if argv == ["show", "pfc", "counters"]:
        return _pfc_counters(dev, wiring)
    if argv == ["show", "queue", "counters"]:
        return _queue_counters(dev, wiring)
    if argv == ["show", "buffer", "information"]:  # buffer profiles as programmed (verify)
        from netcfg.lab.sonic.buffershow import buffer_information

        return buffer_information(dev)
    return None


def simple_table(rows: list[list[str]], header: list[str]) -> str:
    """tabulate(rows, header, tablefmt='simple', stralign='right', numalign='right'), as
    sonic-utilities prints its tables (every cell here is text): a column is as wide as its
    widest cell, and at least its header plus tabulate's minimum padding of 2."""
    widths = [max(len(str(header[i])) + 2, *(len(str(r[i])) for r in rows))
              for i in range(len(header))]
    lines = ["  ".join(str(h).rjust(w) for h, w in zip(header, widths, strict=True)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(str(c).rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def _ports(dev: SonicEmulator) -> list[str]:
    return sorted(dev.running.get("PORT", {}),
                  key=lambda n: int(n.removeprefix("Ethernet") or 0)
                  if n.removeprefix("Ethernet").isdigit() else 0)


def _watched(dev: SonicEmulator, wiring: Wiring, port: str) -> set[int]:
    if ("pfc_off", dev.name, port) in wiring.pfc_faults:
        return set()
    if port not in dev.running.get("PFC_WD", {}):
        return set()
    qos = dev.running.get("PORT_QOS_MAP", {}).get(port, {})
    listed = str(qos.get("pfcwd_sw_enable", qos.get("pfc_enable", "")))
    return {int(p) for p in listed.split(",") if p.strip().isdigit()}


def _lossless(dev: SonicEmulator, port: str) -> set[int]:
    qos = dev.running.get("PORT_QOS_MAP", {}).get(port, {})
    return {int(p) for p in str(qos.get("pfc_enable", "")).split(",") if p.strip().isdigit()}


def _reading(wiring: Wiring, key: tuple[str, str, str]) -> int:
    """How many times this counter has been read (each reading moves a faulted counter)."""
    wiring.readings[key] = wiring.readings.get(key, 0) + 1
    return wiring.readings[key]


STATS_HEADER = ["QUEUE", "STATUS", "STORM DETECTED/RESTORED", "TX OK/DROP", "RX OK/DROP",
                "TX LAST OK/DROP", "RX LAST OK/DROP"]


def _pfcwd_stats(dev: SonicEmulator, wiring: Wiring, empty: bool) -> str:
    rows = []
    for port in _ports(dev):
        watched = _watched(dev, wiring, port)
        stormed = ("pfc_storm", dev.name, port) in wiring.pfc_faults
        for q in range(8):
            if q not in watched:
                row = [f"{port}:{q}", "N/A"] + ["0/0"] * 5
            elif stormed:
                row = [f"{port}:{q}", "stormed", "1/0", "0/0", "0/0", "0/0", "0/0"]
            else:
                row = [f"{port}:{q}", "operational"] + ["0/0"] * 5
            if empty or row[2:] != ["0/0"] * 5:
                rows.append(row)
    return simple_table(rows, STATS_HEADER)


def _comma(n: int) -> str:
    return f"{n:,}"


def _pfc_counters(dev: SonicEmulator, wiring: Wiring) -> str:
    rx, tx = [], []
    for port in _ports(dev):
        frames = [0] * 8
        if ("pfc_storm", dev.name, port) in wiring.pfc_faults:
            n = _reading(wiring, ("pfc", dev.name, port))
            for p in _lossless(dev, port):
                frames[p] = n * PAUSES_PER_READING
        rx.append([port] + [_comma(f) for f in frames])
        tx.append([port] + ["0"] * 8)
    titles = [f"PFC{p}" for p in range(8)]
    return (simple_table(rx, ["Port Rx", *titles]) + "\n\n"
            + simple_table(tx, ["Port Tx", *titles]) + "\n")


QUEUE_HEADER = ["Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes"]


def _queue_counters(dev: SonicEmulator, wiring: Wiring) -> str:
    parts = []
    for port in _ports(dev):
        drops = [0] * 8
        if ("lossless_drops", dev.name, port) in wiring.pfc_faults:
            n = _reading(wiring, ("drops", dev.name, port))
            for p in _lossless(dev, port):
                drops[p] = n * DROPS_PER_READING
        rows = [[port, f"UC{q}", "0", "0", _comma(drops[q]), _comma(drops[q] * 1024)]
                for q in range(8)]
        rows += [[port, f"MC{q}", "0", "0", "0", "0"] for q in range(8, 16)]
        parts.append("For namespace :\n" + simple_table(rows, QUEUE_HEADER) + "\n")
    return "\n".join(parts)
