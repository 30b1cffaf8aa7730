"""PFC, queue and ECN state read with each NOS's own commands, where netcfg has a parser
tested on a published capture of the NOS's output (docs/verify.md names them): EOS and Junos
here, SONiC through its vendor package (`Vendor.read_pfc`). Where none was found, the checks are
not verifiable on that NOS and every report says so, naming the command and why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from netcfg.render.plan import Interface
from netcfg.verify.pfc import PfcState
from netcfg.verify.readers import eos, junos, sonic_buffers

#: NOS -> reader of one PfcState through the NAPALM driver
READERS: dict[str, Callable[[Any], PfcState]] = {"eos": eos.read, "junos": junos.read}

#: NOS -> (reader of the buffer profiles as programmed, by name; the name of a port's
#: lossless PG profile)
BUFFERS: dict[str, tuple[Callable[[Any], dict[str, dict[str, str]]],
                         Callable[[Interface], str]]] = {
    "sonic": (sonic_buffers.read, sonic_buffers.profile_name)}

#: NOS -> why its PFC and queue state is not verifiable (no reader)
NOT_VERIFIABLE: dict[str, str] = {
    "nxos": "`show interface priority-flow-control`, `show queuing interface` and `show "
            "queuing pfc-queue`: no published capture of their NX-API JSON or text to test "
            "a parser on",
    "cumulus": "`nv show interface <port> qos roce status` and `... qos roce counters`: "
               "NVIDIA's documented outputs may not be copied (no licence) and no other "
               "capture was found",
}

#: NOS -> (rules, why) a reader from outside this package leaves unverified
PARTS_NOT_VERIFIABLE: dict[str, tuple[tuple[str, str], ...]] = {
    "sonic": (("VFY021", "ECN marking as programmed: `show ecn` (sonic-utilities "
               "scripts/ecnconfig) prints CONFIG_DB's WRED profiles, the configuration VFY001 "
               "compares, not the queues' state, and no published output of a command that "
               "does was found"),),
}
