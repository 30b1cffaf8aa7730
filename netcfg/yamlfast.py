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


try:
    from yaml import CSafeDumper as SafeDumper
except ImportError:  # pragma: no cover - a PyYAML built without libyaml
    from yaml import SafeDumper  # type: ignore[assignment]


def safe_dump(data: Any, **options: Any) -> str:
    """`yaml.safe_dump`, with libyaml's emitter for a mapping or a list: the same text (the
    representers are PyYAML's own; tests/test_yamlfast.py compares both on NVIDIA's factory
    file and every rendered NVUE document) at a fraction of the pure-Python emitter's CPU.
    A lone scalar stays with PyYAML's emitter, which ends its document with `...` where
    libyaml does not."""
    if isinstance(data, (dict, list)):
        return yaml.dump(data, Dumper=SafeDumper, **options)
    return yaml.safe_dump(data, **options)
