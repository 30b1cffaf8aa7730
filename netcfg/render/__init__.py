"""Rendering: DevicePlan (plan.py) -> vendor templates (engine.py, nos/) -> one file per device.

This package module stays import-light: `validate` loads the capability tables from `nos/`
without pulling in Jinja2. The engine's names resolve lazily (`netcfg.render.render_plan`).
"""

from __future__ import annotations

import importlib
from typing import Any

_ENGINE = frozenset({"TEMPLATES", "environment", "file_name", "render_files", "render_plan",
                     "select"})


def __getattr__(name: str) -> Any:
    if name in _ENGINE:
        return getattr(importlib.import_module("netcfg.render.engine"), name)
    raise AttributeError(f"module 'netcfg.render' has no attribute {name!r}")
