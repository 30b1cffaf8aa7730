"""netcfg.yamlfast against PyYAML's pure-Python parser and emitter: the same data and the same
text, on NVIDIA's factory startup.yaml (../shared/factory/cumulus) and every rendered NVUE
golden, whole and section by section as the Cumulus deploy adapter dumps them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from netcfg import yamlfast
from netcfg.vendors.cumulus.deploy import CumulusDeploy

ROOT = Path(__file__).resolve().parents[1]
FACTORY = ROOT.parent / "shared" / "factory" / "cumulus" / \
    "startup.yaml.factory-reconstructed.yaml"
DOCUMENTS = sorted((ROOT / "tests" / "render" / "golden" / "cumulus").glob("*.yaml"))


def _documents() -> list[Path]:
    if not FACTORY.is_file():
        pytest.skip("../shared/factory/cumulus is not here (NVIDIA's factory startup.yaml)")
    return [FACTORY, *DOCUMENTS]


def test_libyaml_reads_and_writes_what_pyyaml_does():
    for path in _documents():
        text = path.read_text()
        data = yaml.safe_load(text)
        assert yamlfast.safe_load(text) == data, path.name
        for sort_keys in (True, False):
            assert yamlfast.safe_dump(data, sort_keys=sort_keys) == \
                yaml.safe_dump(data, sort_keys=sort_keys), path.name


def test_the_cumulus_sections_are_pyyamls_text():
    """Sections are mappings, lists and lone scalars (`system hostname`: PyYAML ends that
    document with `...`, libyaml would not)."""
    for path in _documents():
        sections = CumulusDeploy().sections(path.read_text())
        assert sections["system hostname"][1].endswith("\n...\n")
        for key, (_, text) in sections.items():
            assert text == yaml.safe_dump(yaml.safe_load(text), sort_keys=True), key
