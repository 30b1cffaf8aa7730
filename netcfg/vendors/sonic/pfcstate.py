"""SONiC's own PFC and queue state: the tables sonic-utilities prints, parsed.

NAPALM has no getter for PFC, the PFC watchdog or queue drops, so on SONiC netcfg verify runs the
commands SONiC's own tools provide, through the driver's `cli` (netcfg_sonic runs them in the
switch's shell), and reads their tables (tabulate's `simple` format: a header line, a line of
dashes whose runs give the columns, then rows):

- `pfcwd show stats --empty` (sonic-utilities pfcwd/main.py): one row per queue `PORT:Q`,
  STATUS `operational` (the watchdog watches it), `stormed` (a storm is on now) or `N/A` (not
  watched: PFC or the watchdog is off there); `--empty` lists the queues without events too;
- `show pfc counters` (scripts/pfcstat): PFC frames received (`Port Rx`) and sent
  (`Port Tx`) per port and priority;
- `show queue counters` (scripts/queuestat): per port and queue (`UC3` is unicast queue 3)
  packets, bytes and drops.

The parsers are tested on the outputs sonic-utilities' own tests expect
(tests/verify/fixtures/sonic-utilities/).
"""

from __future__ import annotations

from netcfg.verify.pfc import PfcCounters, PfcState, WatchedQueue

#: what verify runs on a SONiC switch, in order
COMMANDS = ("pfcwd show stats --empty", "show pfc counters", "show queue counters")


def tables(text: str) -> list[list[dict[str, str]]]:
    """Every tabulate `simple` table in `text`: rows as header -> cell."""
    lines = text.splitlines()
    out: list[list[dict[str, str]]] = []
    i = 0
    while i + 1 < len(lines):
        dashes = lines[i + 1]
        if not dashes.strip() or set(dashes.replace(" ", "")) != {"-"}:
            i += 1
            continue
        spans, pos = [], 0
        for run in dashes.split():
            start = dashes.index(run, pos)
            spans.append((start, start + len(run)))
            pos = start + len(run)
        header = _cells(lines[i], spans)
        rows = []
        i += 2
        while i < len(lines) and lines[i].strip():
            rows.append(dict(zip(header, _cells(lines[i], spans), strict=True)))
            i += 1
        out.append(rows)
    return out


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """Cells by column: a cell may spill left of its dashes (right-aligned numbers), so each
    column ends where its dashes end and starts after the previous column's end."""
    cells, prev = [], 0
    for n, (_, end) in enumerate(spans):
        stop = len(line) if n == len(spans) - 1 else end
        cells.append(line[prev:stop].strip())
        prev = stop
    return cells


def _int(text: str) -> int | None:
    text = text.replace(",", "")
    return int(text) if text.isdigit() else None


def pfcwd_stats(text: str) -> dict[tuple[str, int], WatchedQueue]:
    """`pfcwd show stats`: (port, queue) -> its watchdog state."""
    out: dict[tuple[str, int], WatchedQueue] = {}
    for table in tables(text):
        for row in table:
            port, _, queue = row.get("QUEUE", "").rpartition(":")
            if not port or not queue.isdigit():
                continue
            detected, _, restored = row.get("STORM DETECTED/RESTORED", "0/0").partition("/")
            tx = row.get("TX OK/DROP", "0/0").partition("/")[2]
            rx = row.get("RX OK/DROP", "0/0").partition("/")[2]
            out[(port, int(queue))] = WatchedQueue(
                row.get("STATUS", "N/A"), _int(detected) or 0, _int(restored) or 0,
                _int(tx) or 0, _int(rx) or 0)
    return out


def pfc_counters(text: str) -> PfcCounters:
    out = PfcCounters()
    for table in tables(text):
        for row in table:
            key = "Port Rx" if "Port Rx" in row else "Port Tx" if "Port Tx" in row else None
            if key is None:
                continue
            frames = [_int(row.get(f"PFC{p}", "")) or 0 for p in range(8)]
            (out.rx if key == "Port Rx" else out.tx)[row[key]] = frames
    return out


def queue_drops(text: str) -> dict[str, dict[int, int]]:
    """`show queue counters`: port -> unicast queue -> dropped packets (N/A left out)."""
    out: dict[str, dict[int, int]] = {}
    for table in tables(text):
        for row in table:
            queue = row.get("TxQ", "")
            drops = _int(row.get("Drop/pkts", ""))
            if queue.startswith("UC") and queue[2:].isdigit() and drops is not None:
                out.setdefault(row["Port"], {})[int(queue[2:])] = drops
    return out


def parse(outputs: dict[str, str]) -> PfcState:
    """The three commands' outputs (COMMANDS -> text) as one reading."""
    return PfcState(pfcwd_stats(outputs[COMMANDS[0]]), pfc_counters(outputs[COMMANDS[1]]),
                    queue_drops(outputs[COMMANDS[2]]))
