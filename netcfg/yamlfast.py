"""PyYAML's libyaml parser where the installed wheel has it (pip's wheels do).

Parsing is much of the CPU of a push and of the lab: an NVUE document of a multivendor leaf
(25 KB) takes 32 ms with the pure-Python parser and 4 ms with libyaml, and a push reads
each switch's running and candidate documents several times. The loaders build the same
Python data (libyaml only parses; the constructors and resolvers are PyYAML's own).
"""

from __future__ import annotations

from typing import Any

import yaml

try:
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - a PyYAML built without libyaml
    from yaml import SafeLoader  # type: ignore[assignment]


def safe_load(text: str) -> Any:
    """`yaml.safe_load` with libyaml's parser."""
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader
