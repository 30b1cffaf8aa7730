"""Read an inventory (directory or fabric.yaml) into a validated Intent with source positions."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from netcfg.findings import Finding, IntentError, Position
from netcfg.intent.base import suggest
from netcfg.intent.errors import data_path, findings_from_validation
from netcfg.intent.model import Intent
from netcfg.intent.yamlsrc import PathKey, SourceMap, dotted, load_yaml, load_yaml_text

FABRIC_FILE = "fabric.yaml"
#: Optional companion file: management addresses and credentials per device (`devices:`).
DEVICES_FILE = "devices.yaml"


@dataclass
class LoadedIntent:
    intent: Intent
    data: dict[str, Any]
    src: SourceMap
    root: Path
    fabric_file: str

    def pos(self, path: PathKey) -> Position | None:
        return self.src.value(path)

    def key_pos(self, path: PathKey) -> Position | None:
        return self.src.key(path)

    def is_set(self, path: PathKey) -> bool:
        """True when the user wrote this value (so it is not a default)."""
        return self.src.has(path)

    def finding(self, rule: str, message: str, path: PathKey, *, key: bool = False,
                **kw: Any) -> Finding:
        pos = self.key_pos(path) if key else self.pos(path)
        return Finding.at(rule, message, pos, path=dotted(path), **kw)


def _locate(path: Path) -> tuple[Path, Path]:
    """(inventory directory, fabric file) for a directory or a file argument."""
    if path.is_dir():
        return path, path / FABRIC_FILE
    return path.parent, path


def load_intent(path: str | Path) -> LoadedIntent:
    """Load and schema-validate; raises IntentError with located findings."""
    root, fabric_path = _locate(Path(path))
    if not root.exists():
        raise IntentError([Finding.at("YAML001", "inventory not found", Position(str(path), 1, 1))])
    shown = str(fabric_path)
    data, src = load_yaml(fabric_path, shown)
    devices_path = root / DEVICES_FILE
    devices = None
    if fabric_path.name == FABRIC_FILE and devices_path.exists():
        devices = load_yaml(devices_path, str(devices_path))
    return _loaded(data, src, devices, root, shown)


def load_intent_text(fabric: str, devices: str | None = None,
                     root: str | Path = ".") -> LoadedIntent:
    """The same from the texts of fabric.yaml and devices.yaml (findings name those files);
    `root` is where references to files (credentials, root-password hash) are resolved."""
    data, src = load_yaml_text(fabric, FABRIC_FILE)
    extra = load_yaml_text(devices, DEVICES_FILE) if devices is not None else None
    return _loaded(data, src, extra, Path(root), FABRIC_FILE)


def _loaded(data: Any, src: SourceMap, devices: tuple[Any, SourceMap] | None, root: Path,
            shown: str) -> LoadedIntent:
    if not isinstance(data, dict):
        raise IntentError(
            [Finding.at("YAML007", f"top level must be a mapping of sections "
                        f"(fabric, topology, qos, ...), not a {type(data).__name__}",
                        src.value(()))])
    if devices is not None:
        _merge_devices_file(data, src, *devices)
    intent = _validate(data, src)
    return LoadedIntent(intent=intent, data=data, src=src, root=root, fabric_file=shown)


def _validate(data: dict[str, Any], src: SourceMap) -> Intent:
    """Schema-validate; report unknown keys *and* the other errors of the same mappings.

    An unknown key stops Pydantic from checking the rest of its mapping, so after such errors
    the keys are dropped from a copy and validation runs again (a few rounds at most).
    """
    findings: list[Finding] = []
    seen: set[tuple[str | None, str | None, str]] = set()
    current = data
    for _ in range(4):
        try:
            intent = Intent.model_validate(current)
        except ValidationError as exc:
            for f in findings_from_validation(exc, current, src):
                if (f.rule, f.path, f.message) not in seen:
                    seen.add((f.rule, f.path, f.message))
                    findings.append(f)
            unknown = [e for e in exc.errors() if e["type"] == "unknown_keys"]
            if not unknown:
                break
            current = copy.deepcopy(current)
            for err in unknown:
                node: Any = current
                for part in data_path(tuple(err["loc"]), current):
                    node = node[part]
                for key in err["ctx"]["keys"]:
                    node.pop(key, None)
            continue
        if not findings:
            return intent
        break
    raise IntentError(findings)


def _merge_devices_file(data: dict[str, Any], src: SourceMap, extra: Any,
                        extra_src: SourceMap) -> None:
    allowed = ("devices", "credentials")
    if not isinstance(extra, dict):
        raise IntentError([Finding.at(
            "YAML007", f"{DEVICES_FILE} must be a mapping with 'devices' and/or 'credentials'",
            extra_src.value(()))])
    foreign = [k for k in extra if k not in allowed]
    if foreign:
        raise IntentError([Finding.at(
            "YAML007", f"{DEVICES_FILE} may only hold 'devices' and 'credentials', not "
            f"'{k}'{suggest(k, allowed)}", extra_src.key((k,)), path=k) for k in foreign])
    for section, entries in extra.items():
        if not isinstance(entries, dict):
            raise IntentError([Finding.at(
                "YAML007", f"'{section}' must be a mapping of names", extra_src.value((section,)))])
        target = data.setdefault(section, {})
        if not isinstance(target, dict):
            continue  # the schema reports the wrong type in fabric.yaml
        if (section,) not in src.values:
            src.values[(section,)] = extra_src.value((section,))  # type: ignore[assignment]
        for name, value in entries.items():
            if name in target:
                first = src.key((section, name))
                raise IntentError([Finding.at(
                    "YAML004", f"{section} entry '{name}' is defined twice (also at {first})",
                    extra_src.key((section, name)), path=f"{section}.{name}")])
            target[name] = value
        src.merge(SourceMap({k: v for k, v in extra_src.values.items() if k[:1] == (section,)
                             and len(k) > 1},
                            {k: v for k, v in extra_src.keys.items() if k[:1] == (section,)}))
