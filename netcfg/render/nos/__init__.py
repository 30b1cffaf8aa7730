"""One module per NOS: unit conversions (`view`), its template, and its reader.

Each module defines:
  TEMPLATE: str                      template path under templates/ (e.g. "eos/device.j2")
  EXTENSION: str                     file extension of a rendered config
  view(plan) -> dict                 values in the NOS's own units/spellings for the template
  read(text) -> QosFacts             parse a rendered or running config into QoS facts
                                     (Junos: read(text, queue_buffer) -- its ECN fill levels
                                     are percents of a buffer the config does not state)
  expected(plan) -> QosFacts         what read() must return for a plan (facts_of(plan)
                                     unless the NOS cannot express a fact exactly, e.g.
                                     Junos ECN in whole percents)
"""

from __future__ import annotations

import importlib
from types import ModuleType

NOSES = ("eos", "nxos", "junos", "cumulus", "sonic")


def module(nos: str) -> ModuleType:
    return importlib.import_module(f"netcfg.render.nos.{nos}")
