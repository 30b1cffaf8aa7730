"""What a physics model returns: the numbers, and every step that produced them.

`explain` prints the steps (formula with the input values, the term in bytes, the rounding),
so the derivation a user reads is the very computation the renderers use.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    value: float
    formula: str
    unit: str = "B"

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "value": self.value, "formula": self.formula,
                "unit": self.unit}


@dataclass(frozen=True, slots=True)
class Headroom:
    """Buffer numbers of one lossless priority group, bytes.

    xoff: headroom that absorbs what arrives after PFC XOFF is sent; xon: the XON threshold
    (SONiC: reserved below XOFF; generic model: one frame of hysteresis); size: bytes reserved
    per PG (xon alone when the XOFF part lives in a shared headroom pool).
    """

    xon: int
    xoff: int
    size: int
    model: str = field(default="", compare=False)
    steps: tuple[Step, ...] = field(default=(), compare=False, repr=False)

    def as_dict(self) -> dict[str, object]:
        return {"model": self.model, "xon": self.xon, "xoff": self.xoff, "size": self.size,
                "steps": [s.as_dict() for s in self.steps]}


def fmt(x: float) -> str:
    """A number as a formula shows it: integers plain, others to 4 significant decimals."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}".rstrip("0").rstrip(".")
