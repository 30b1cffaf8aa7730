"""The Cumulus lab prints its revisions with libyaml's emitter (netcfg/lab/cumulus/config.py):
the text must be PyYAML's own pure-Python emitter's, byte for byte, with the same
representers, and read back to the same tree. Inputs: NVIDIA's factory startup.yaml
(../shared/factory/cumulus, where present), the rendered Cumulus goldens, and strings that
make an emitter choose quoting (digits, on/off, newlines, colons, leading blanks, non-ASCII,
very long lines). (Booleans are left out: the lab's loader reads `true` back as a string on
purpose, NVUE's way.)"""

from __future__ import annotations

from pathlib import Path

import yaml

from netcfg.lab.cumulus import config as cfg

ROOT = Path(__file__).resolve().parents[2]
FACTORY = ROOT.parent / "shared" / "factory" / "cumulus"


class _PurePython(yaml.SafeDumper):
    pass


_PurePython.add_representer(str, cfg._str_presenter)

AWKWARD = [{"set": {"system": {
    "hostname": "leaf1", "message": {"pre-login": "line one\nline two"}, "empty": "",
    "on": "on", "digits": "12", "colon": "a: b", "lead": "  x", "name": "é ü ß",
    "none": None, "list": [], "map": {}, "ratio": 1.5, "dash": "- x",
    "hash": "#x", "long": "a" * 5000, "quoted": "'q' \"dq\"", "tab": "t\tx", "trail": "x ",
}}}]


def test_the_lab_prints_what_pyyamls_own_emitter_prints():
    documents = [cfg.load_yaml(p.read_text())
                 for p in sorted((ROOT / "tests" / "render" / "golden" / "cumulus")
                                 .glob("*.yaml"))]
    documents += [cfg.load_yaml(p.read_text()) for p in sorted(FACTORY.glob("*.yaml"))]
    assert documents
    for document in documents + AWKWARD:
        text = cfg.dump_yaml(document)
        assert text == yaml.dump(document, Dumper=_PurePython, default_flow_style=False,
                                 sort_keys=False, width=4096)
        assert cfg.load_yaml(text) == document
