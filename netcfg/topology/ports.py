"""Front-panel port assignment: groups of links take whole cages, broken out per speed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from netcfg.platforms import Platform


@dataclass(slots=True)
class CageAllocator:
    """Hands out interface names of one switch, cage by cage, in a fixed order."""

    platform: Platform
    next_cage: int = 0  # 0-based
    #: Identical switches get identical names: compute each name list once.
    _cache: ClassVar[dict[tuple[str, int, int, int, int], list[str]]] = {}

    def cages_for(self, count: int, speed: int) -> int | None:
        mode = self.platform.mode_for(speed)
        if mode is None:
            return None
        return -(-count // mode.per_cage)

    def take(self, count: int, speed: int) -> list[str]:
        """Names of `count` ports of `speed`, starting at the next free cage.

        The caller checks feasibility first (`cages_for` and the platform's cage count).
        """
        mode = self.platform.mode_for(speed)
        assert mode is not None
        key = (mode.name, mode.per_cage, self.platform.lanes_per_cage, self.next_cage, count)
        names = self._cache.get(key)
        if names is None:
            names = self._cache[key] = self._names(count, speed)
        self.next_cage += self.cages_for(count, speed) or 0
        return names

    def _names(self, count: int, speed: int) -> list[str]:
        mode = self.platform.mode_for(speed)
        assert mode is not None
        return [self.platform.port_name(mode, self.next_cage + i // mode.per_cage,
                                        i % mode.per_cage) for i in range(count)]

    @property
    def free_cages(self) -> int:
        return self.platform.cages - self.next_cage
