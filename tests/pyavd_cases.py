"""Where Arista's pyavd can be run for tests that compare netcfg's EOS text with pyavd's own
(`get_device_config`): NETCFG_PYAVD_PYTHON names a Python that has it, or it is importable
here. None where neither: those tests skip and say so."""

from __future__ import annotations

import os
import sys


def pyavd_python() -> str | None:
    given = os.environ.get("NETCFG_PYAVD_PYTHON")
    if given:
        return given
    try:
        import pyavd  # noqa: F401
    except ImportError:
        return None
    return sys.executable
