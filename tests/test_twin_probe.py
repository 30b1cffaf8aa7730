"""The reachability probe's open-file limit (no root needed: the limit is the process's)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import resource
from netcfg.twin.network import TwinError
from netcfg.twin.probe import _allow_files

resource.setrlimit(resource.RLIMIT_NOFILE, (50, 100))
_allow_files(80)
print(resource.getrlimit(resource.RLIMIT_NOFILE))
try:
    _allow_files(200)
except TwinError as exc:
    print(exc)
"""


def test_the_soft_limit_is_raised_and_a_hard_limit_too_low_is_one_line():
    """A soft limit of 50 is raised to the 80 asked for (the hard one, 100, stays); 200
    is more than the hard limit allows: one line naming both and what to do."""
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60, check=True)
    raised, refused = proc.stdout.splitlines()
    assert raised == "(80, 100)"
    assert refused == ("the probe needs 200 open files and this process may hold at most 100 "
                       "(ulimit -Hn): raise it, or send from fewer NICs (--sources)")
