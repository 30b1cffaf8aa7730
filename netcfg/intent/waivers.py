"""Waivers: a lint rule knowingly accepted for some devices or ports, with the reason why.

A waived finding is still reported (marked waived) so the exception stays visible in every
run; it no longer fails the gate. Positions come from the YAML source map like every section.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from netcfg.intent.base import IntentModel, Text

_RULE_ID = re.compile(r"^[A-Z]{3}[0-9]{3}$")
_GLOB = re.compile(r"^[A-Za-z0-9_.\-*?\[\]!:/]{1,128}$")


def _check_rule(value: str) -> str:
    if not _RULE_ID.match(value):
        raise PydanticCustomError("bad_rule", "'{value}' is not a rule id like 'HSH001'",
                                  {"value": value[:40]})
    return value


def _check_glob(value: str) -> str:
    if not _GLOB.match(value):
        raise PydanticCustomError("bad_glob", "'{value}' is not a device or port glob",
                                  {"value": value[:40]})
    return value


RuleId = Annotated[str, AfterValidator(_check_rule)]
Glob = Annotated[str, AfterValidator(_check_glob)]


class Waiver(IntentModel):
    """Accept findings of `rule` on matching devices (`spine*`) or ports (`leaf-*:swp1*`)."""

    rule: RuleId
    devices: list[Glob] = Field(default_factory=list, description="device name globs")
    ports: list[Glob] = Field(default_factory=list, description="'device:interface' globs")
    reason: Text = Field(min_length=1, description="why this is acceptable (required)")

    @model_validator(mode="after")
    def _scoped(self) -> Waiver:
        if not self.devices and not self.ports:
            raise PydanticCustomError(
                "waiver_scope", "a waiver needs 'devices' or 'ports' (use ['*'] for all devices)")
        return self
