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


def _facts(nos: str, kwargs: dict) -> None:
    from netcfg.vendors import vendor

    driver = napalm.get_network_driver(vendor(nos).deploy.napalm_driver)(**kwargs)
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


#: client threads per NOS: enough to keep the lab busy without drowning the GIL
WORKERS = {"eos": 20, "junos": 50, "nxos": 20, "sonic": 20, "cumulus": 20}

if __name__ == "__main__":
    counts = dict(zip(WORKERS, [200, 200, 0, 0, 0]))
    counts.update(zip(WORKERS, (int(a) for a in sys.argv[1:])))
    for nos, count in counts.items():
        if count:
            run(nos, count, WORKERS[nos])
