"""`raw_config`: configuration netcfg does not model, put into a NOS's rendered file as written.

The escape hatch every fabric needs sooner or later (a site's own syslog filter, a feature
netcfg does not render yet), as AVD has `eos_cli` and `structured_config`: per NOS, for the
switches of some roles or some device globs, at a defined point of the file. Line NOSes (EOS,
NX-OS, Junos, FRR) take `lines` of their own syntax at the `start` or the `end` of the file;
structured ones (SONiC's config_db.json, Cumulus's NVUE document) take a `merge` mapping laid
over the rendered one. The NOS's own checks on what a line may be (no line that leaves
configuration mode, balanced Junos braces) are its facts' (`NosFacts.raw_refusal`), applied
when the fabric is built; here only what holds for every NOS: printable text, no control
characters but the line breaks between lines and tabs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from netcfg.intent.base import (
    _TEXT_PATTERN,
    IntentModel,
    Text,
    _check_name,
    catalog_name,
    unsafe,
)
from netcfg.intent.waivers import Glob

#: roles a raw entry may select (the switch roles of the intent)
RawRole = Literal["leaf", "spine", "core"]


def _check_lines(value: str) -> str:
    bad = unsafe(value, "\n\t")
    if bad is not None:
        raise PydanticCustomError(
            "unsafe_text", "raw lines contain a control character ({char} at offset "
            "{offset}); only line breaks and tabs may appear in them",
            {"char": repr(bad[1]), "offset": bad[0]})
    return value


def _check_tree(value: Any, path: str = "merge") -> Any:
    """Every key a string and every string one printable line (values reach a JSON or YAML
    file as they are)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise PydanticCustomError("bad_key", "{path}: key {key} is not a string",
                                          {"path": path, "key": repr(key)})
            _check_tree(key, path)
            _check_tree(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_tree(item, f"{path}[{i}]")
    elif isinstance(value, str):
        if unsafe(value) is not None:
            raise PydanticCustomError(
                "unsafe_text", "{path}: text contains a control character or line break",
                {"path": path})
    elif value is not None and not isinstance(value, (bool, int, float)):
        raise PydanticCustomError("bad_value", "{path}: {kind} is not a JSON value",
                                  {"path": path, "kind": type(value).__name__})
    return value


#: what editors are told about raw lines: free text's pattern, with tab and line feed allowed
_LINES_PATTERN = _TEXT_PATTERN.replace("\u0000-\u001f", "\u0000-\u0008\u000b-\u001f", 1)
RawLines = Annotated[str, AfterValidator(_check_lines), Field(min_length=1, max_length=65536),
                     WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 65536,
                                     "pattern": _LINES_PATTERN})]
#: a NOS netcfg renders (its vendors' names; `netcfg schema` lists them)
NosName = Annotated[str, AfterValidator(_check_name), catalog_name("nos")]
RawTree = Annotated[dict[str, Any], AfterValidator(_check_tree),
                    WithJsonSchema({"type": "object"})]


class RawConfig(IntentModel):
    """Lines or a mapping of one NOS's own configuration that netcfg copies into the rendered
    files of the switches selected (every switch of the NOS when neither `roles` nor `devices`
    is given; both given: a switch must match both). Entries apply in the order written."""

    # `netcfg schema` states which NOS takes which form (netcfg/intent/schema.py)
    model_config = ConfigDict(json_schema_extra={"x-netcfg-raw-forms": True})

    nos: NosName = Field(description="the NOS whose files take this (eos, nxos, junos, cumulus, "
                      "sonic, frr)")
    roles: list[RawRole] = Field(default_factory=list, description="only switches of these "
                                 "roles")
    devices: list[Glob] = Field(default_factory=list, description="only switches matching "
                                "these names or globs")
    at: Literal["start", "end"] = Field(
        "end", description="line NOSes: before netcfg's first statement or after its last "
        "(EOS and FRR: before the closing `end`)")
    lines: RawLines | None = Field(
        None, description="EOS, NX-OS, Junos, FRR: configuration text in the NOS's own syntax")
    merge: RawTree | None = Field(
        None, description="SONiC: tables laid over config_db.json; Cumulus: a mapping laid "
        "over the NVUE `set` document (keys merge, values replace)")
    description: Text | None = Field(None, description="why; shown by `netcfg explain`")

    @model_validator(mode="after")
    def _one_form(self) -> RawConfig:
        if (self.lines is None) == (self.merge is None):
            raise PydanticCustomError("raw_form", "a raw_config entry needs exactly one of "
                                      "'lines' (EOS, NX-OS, Junos, FRR) and 'merge' (SONiC, "
                                      "Cumulus)")
        return self


@dataclass(frozen=True, slots=True)
class RawPiece:
    """One `raw_config` entry as a switch's file takes it."""

    #: the entry's index in `raw_config` (explain and lint name it)
    index: int
    at: Literal["start", "end"]
    lines: str | None = None
    merge: dict[str, Any] | None = None
