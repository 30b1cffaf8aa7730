"""Shared building blocks of the intent models: strict base class and checked text types."""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError


class IntentModel(BaseModel):
    """Strict, immutable, and unknown keys are errors that suggest the key meant."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, populate_by_name=False,
        validate_default=False, hide_input_in_errors=True,
    )
    @classmethod
    def allowed_keys(cls) -> list[str]:
        return sorted(f.alias or name for name, f in cls.model_fields.items())

    @model_validator(mode="before")
    @classmethod
    def _reject_unknown_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            allowed = cls.allowed_keys()
            unknown = [k for k in data if k not in allowed]
            if unknown:
                raise PydanticCustomError(
                    "unknown_keys",
                    "unknown key(s) {keys}",
                    {"keys": unknown, "allowed": allowed},
                )
        return data


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """' (did you mean 'x'?)' when a close match exists, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}$")


def is_name(value: str) -> bool:
    """Whether `value` is a Name: the whole string (`match` let a name end in a newline,
    which split every line that printed it)."""
    return _NAME_RE.fullmatch(value) is not None


def _check_name(value: str) -> str:
    if not is_name(value):
        raise PydanticCustomError(
            "bad_name",
            "'{value}' is not a valid name: use 1-63 letters, digits, '-', '_' or '.', "
            "starting with a letter or digit",
            {"value": _printable(value)},
        )
    return value


def _printable(value: str) -> str:
    return value.encode("unicode_escape").decode("ascii")[:80]


def unsafe(value: str, allowed: str = "") -> tuple[int, str] | None:
    """Offset and character of the first control character, line or paragraph separator or
    invisible format character (bidi controls, zero-width, BOM) in `value` that is not in
    `allowed`: what free text, raw lines and banners may not carry into a config."""
    for i, ch in enumerate(value):
        if ch not in allowed and (ch in "\r\n" or unicodedata.category(ch) in
                                  ("Cc", "Cf", "Zl", "Zp")):
            return i, ch
    return None


def _check_text(value: str) -> str:
    bad = unsafe(value)
    if bad is not None:
        raise PydanticCustomError(
            "unsafe_text",
            "text contains a control character or line break ({char} at offset {offset}); "
            "free text must be one printable line (it is copied into device configs)",
            {"char": repr(bad[1]), "offset": bad[0]},
        )
    return value


#: what editors are told about free text: no C0/C1 control characters, line or paragraph
#: separators, or the invisible format characters (bidi controls, zero-width, BOM) that
#: `_check_text` refuses by Unicode category
_TEXT_PATTERN = ("^[^\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd"
                 "\u070f\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
                 "\ufeff\ufff9-\ufffb]*$")

#: Identifiers: device, class, platform and credential names.
Name = Annotated[str, AfterValidator(_check_name),
                 WithJsonSchema({"type": "string", "pattern": _NAME_RE.pattern})]
#: Free text copied into configs (descriptions): one printable line.
Text = Annotated[str, AfterValidator(_check_text), Field(max_length=240),
                 WithJsonSchema({"type": "string", "maxLength": 240, "pattern": _TEXT_PATTERN})]


#: `json_schema_extra` of a mapping whose keys are Names (pydantic states no key schema)
NAMED_KEYS: dict[str, Any] = {"propertyNames": {"pattern": _NAME_RE.pattern}}


def catalog_name(kind: str) -> WithJsonSchema:
    """A name the platform catalog must know (`platforms`, `nics`): `netcfg schema` turns the
    marker into the catalog's names (netcfg/intent/schema.py), so the model stays free of
    catalog data and the schema lists exactly what validate accepts."""
    return WithJsonSchema({"type": "string", "pattern": _NAME_RE.pattern, "x-netcfg-catalog": kind})


PlatformName = Annotated[str, AfterValidator(_check_name), catalog_name("platforms")]
NicName = Annotated[str, AfterValidator(_check_name), catalog_name("nics")]
