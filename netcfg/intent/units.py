"""Quantities as users write them (`400G`, `150KB`, `3m`, `200ms`) -> one canonical unit each.

Canonical units (one place, used everywhere downstream):
  speed  -> Mb/s (int)      `400G`, `400Gbps`, `100000M`, `1.6T`
  size   -> bytes (int)     `150KB` (10^3), `150KiB` (2^10), `1.5MB`, `9216B`
  length -> metres (float)  `3m`, `150cm`, `0.1km`
  time   -> microseconds (float)   `200ms`, `55us`, `1s`, `500ns`

Decimal prefixes (KB, MB) are powers of ten, binary ones (KiB, MiB) powers of two, as in IEC
60027-2; vendor CLIs that say "kbytes" are converted per NOS at render time. A bare number is
refused for these quantities: `400` could be Gb/s or Mb/s, `150` KB or cells. Sizes are spelt
with a capital B: a lower-case `b` is the bit (IEC 80000-13 writes the byte B and the bit
bit; networking writes `Kb`, `Mb` for kilobits and megabits), so `150kb` could be 150,000
bytes or 18,750 and is refused with the spellings allowed, where speeds, always bits per
second, stay case-blind.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer, WithJsonSchema
from pydantic_core import PydanticCustomError

_NUMBER = r"(?P<num>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[A-Za-zµ]*)"
_RE = re.compile(rf"^\s*{_NUMBER}\s*$")

SPEED_UNITS = {"m": 1, "mb": 1, "mbps": 1, "mbit": 1, "g": 1000, "gb": 1000, "gbps": 1000,
               "gbit": 1000, "t": 1_000_000, "tb": 1_000_000, "tbps": 1_000_000}
SIZE_UNITS = {"b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "kib": 1024, "mib": 1024**2,
              "gib": 1024**3, "cells": None}
#: how a size unit is written: the byte is a capital B (a lower-case b is the bit), the prefix
#: K, M, G (or the SI k of kB), binary ones Ki, Mi, Gi
SIZE_SPELLINGS = {"B": "b", "KB": "kb", "kB": "kb", "MB": "mb", "GB": "gb", "KiB": "kib",
                  "MiB": "mib", "GiB": "gib"}
LENGTH_UNITS = {"m": 1.0, "cm": 0.01, "mm": 0.001, "km": 1000.0}
TIME_UNITS = {"ns": 0.001, "us": 1.0, "µs": 1.0, "ms": 1000.0, "s": 1_000_000.0}


def _parse(value: object, kind: str, units: dict, example: str,
           spellings: dict[str, str] | None = None) -> tuple[Decimal, Decimal]:
    """Split `value` into (number, factor) or raise a Pydantic error that says what is allowed."""
    allowed = ", ".join(spellings or (u for u, f in units.items() if f is not None))
    if isinstance(value, bool) or not isinstance(value, str):
        raise PydanticCustomError(
            "unit_missing",
            "{kind} needs a unit: write it as a string like '{example}' (units: {allowed})",
            {"kind": kind, "example": example, "allowed": allowed},
        )
    m = _RE.match(value)
    if not m:
        raise PydanticCustomError(
            "unit_parse",
            "'{value}' is not a {kind}; write it like '{example}' (units: {allowed})",
            {"value": value, "kind": kind, "example": example, "allowed": allowed},
        )
    unit = m["unit"].lower()
    if unit not in units or units[unit] is None:
        raise PydanticCustomError(
            "unit_unknown",
            "'{value}': unknown {kind} unit '{unit}' (units: {allowed})",
            {"value": value, "kind": kind, "unit": m["unit"] or "(none)", "allowed": allowed},
        )
    return Decimal(m["num"]), Decimal(str(units[unit]))  # exact: 1.001G is 1001 Mb/s


def parse_speed(value: object) -> int:
    num, factor = _parse(value, "speed", SPEED_UNITS, "400G")
    mbps = num * factor
    if mbps <= 0 or mbps != int(mbps):
        raise PydanticCustomError(
            "unit_range", "'{value}' is not a positive whole number of Mb/s", {"value": value}
        )
    return int(mbps)


def parse_size(value: object) -> int:
    num, factor = _parse(value, "size", SIZE_UNITS, "150KB", SIZE_SPELLINGS)
    _byte_spelling(value)
    size = num * factor
    if size != int(size):
        raise PydanticCustomError(
            "unit_range", "'{value}' is not a whole number of bytes", {"value": value}
        )
    return int(size)


def _byte_spelling(value: object) -> None:
    """Refuse a size unit that could mean bits (`150kb`, `1Mb`): one line naming the two
    readings and the spellings allowed. `_parse` has matched `value` already."""
    m = _RE.match(str(value))
    assert m is not None
    unit = m["unit"]
    if unit in SIZE_SPELLINGS:
        return
    num = m["num"]
    upper = unit[:-1].upper().replace("I", "i") + "B"  # kib -> KiB, mb -> MB, b -> B
    allowed = ", ".join(u for u in SIZE_SPELLINGS if u != "kB")
    if unit.endswith("B"):  # the byte is meant, the prefix is spelt otherwise (KIB)
        raise PydanticCustomError(
            "unit_spelling", "'{value}': write the unit '{fixed}' (spellings: {allowed})",
            {"value": value, "fixed": upper, "allowed": allowed})
    raise PydanticCustomError(
        "unit_spelling",
        "'{value}': bits or bytes? a size is in bytes, written with a capital B "
        "(a lower-case b is the bit): write '{fixed}' if bytes are meant "
        "(spellings: {allowed})",
        {"value": value, "fixed": f"{num}{upper}", "allowed": allowed})


def parse_length(value: object) -> float:
    num, factor = _parse(value, "length", LENGTH_UNITS, "3m")
    return float(round(num * factor, 6))


def parse_time(value: object) -> float:
    num, factor = _parse(value, "time", TIME_UNITS, "200ms")
    return float(round(num * factor, 6))


def _plain(x: float) -> str:
    """A number without exponent or float noise, to 6 decimals (the parsers' resolution)."""
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def format_speed(mbps: int) -> str:
    if mbps % 1_000_000 == 0:
        return f"{mbps // 1_000_000}T"
    if mbps % 1000 == 0:
        return f"{mbps // 1000}G"
    if mbps >= 1000:
        return f"{Decimal(mbps) / 1000}G"  # exact: 2.5G, 1.001G
    return f"{mbps}M"


def format_size(n: int) -> str:
    for unit, f in (("MB", 1000**2), ("KB", 1000)):
        if n >= f and n % f == 0:
            return f"{n // f}{unit}"
    return f"{n}B"


def format_length(m: float) -> str:
    return f"{_plain(m)}m"


def format_time(us: float) -> str:
    if us >= 1000 and round(us, 6) % 1000 == 0:
        return f"{_plain(us / 1000)}ms"
    return f"{_plain(us)}us"


# Annotated field types: parse on input, print back in the user's notation in JSON output.
def _schema(units: dict, example: str, spellings: dict[str, str] | None = None
            ) -> WithJsonSchema:
    """Editors see these fields as strings with a unit, which is what users type (sizes in
    their only spellings, the other units in any case)."""
    names = ", ".join(u for u, f in units.items() if f)
    if spellings is not None:
        names = ", ".join(spellings)
        spelled = sorted(spellings, key=len, reverse=True)
    else:  # JSON Schema patterns have no case-insensitive flag: each letter as [xX]
        spelled = sorted(("".join(f"[{c}{c.upper()}]" if c.isalpha() and c.upper() != c
                                  else c for c in unit) for unit, f in units.items() if f),
                         key=len, reverse=True)
    return WithJsonSchema(
        {"type": "string", "pattern": r"^\s*[0-9]+(\.[0-9]+)?\s*(" + "|".join(spelled)
         + r")\s*$", "examples": [example], "description": f"a number with a unit ({names})"}
    )


Speed = Annotated[int, BeforeValidator(parse_speed), PlainSerializer(format_speed, return_type=str),
                  _schema(SPEED_UNITS, "400G")]
Size = Annotated[int, BeforeValidator(parse_size), PlainSerializer(format_size, return_type=str),
                 _schema(SIZE_UNITS, "150KB", SIZE_SPELLINGS)]
Length = Annotated[float, BeforeValidator(parse_length),
                   PlainSerializer(format_length, return_type=str), _schema(LENGTH_UNITS, "3m")]
Duration = Annotated[float, BeforeValidator(parse_time),
                     PlainSerializer(format_time, return_type=str), _schema(TIME_UNITS, "200ms")]
