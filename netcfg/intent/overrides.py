"""Override matching: fabric -> role -> device -> port, most specific wins.

Device keys in `overrides.devices` are names or shell globs (`leaf-su1-*`); port keys in
`overrides.ports` are `device:interface`, globs allowed on both sides. An exact key beats any
glob; among globs the one written last wins, as in a cascade.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

_GLOB_CHARS = re.compile(r"[*?\[]")


def is_glob(key: str) -> bool:
    return bool(_GLOB_CHARS.search(key))


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(pattern))


def matching_keys(keys: Iterable[str], name: str) -> list[str]:
    """Keys that match `name`, most specific first."""
    ordered = list(keys)
    exact = [k for k in ordered if k == name]
    globs = [k for k in reversed(ordered) if is_glob(k) and _compiled(k).match(name)]
    return exact + globs


def match_device(overrides: Mapping[str, object], name: str) -> list[str]:
    if not overrides:
        return []
    return matching_keys(overrides.keys(), name)
