"""Capacity check: `python -m netcfg.lab.bench [EOS_DEVICES] [JUNOS_DEVICES] [NXOS_DEVICES]`.

Starts one lab with that many devices (in this process's background thread, so client and
lab share the CPU as in the test suite), then runs open + get_facts + close through the real
NAPALM drivers from a thread pool and prints devices, start-up time, memory and rate.
"""

from __future__ import annotations

import resource
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import napalm

from netcfg.lab import DeviceSpec, Lab


def _facts(driver_name: str, kwargs: dict) -> None:
    driver = napalm.get_network_driver(driver_name)(**kwargs)
    driver.open()
    driver.get_facts()
    driver.close()


def run(nos: str, count: int, workers: int) -> None:
    specs = [DeviceSpec(f"{nos}{i}", nos) for i in range(count)]
    start = time.perf_counter()
    with Lab(specs) as lab:
        lab.advance(60)
        started = time.perf_counter() - start
        args = [lab[s.name].napalm() for s in specs]
        begin = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda a: _facts(nos, a), args))
        elapsed = time.perf_counter() - begin
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{nos}: {count} devices, started in {started:.2f} s, peak RSS {rss:.0f} MiB, "
          f"{count} x (open+get_facts+close) in {elapsed:.2f} s = {count / elapsed:.1f}/s")


if __name__ == "__main__":
    eos = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    junos = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    nxos = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if eos:
        run("eos", eos, 20)
    if junos:
        run("junos", junos, 50)
    if nxos:  # NX-API: every command is its own HTTPS request (TLS handshake included)
        run("nxos", nxos, 20)
