"""`one`: one switch of each NOS in a lab of its own, with its deploy target, rendered config and
a fresh run: the device the push tests and the chaos suite work on."""

from __future__ import annotations

import pytest

from netcfg.deploy.runs import Run

from .chaos_sample import deselect
from .deploy_cases import BY_NOS, fleet, specs


def pytest_collection_modifyitems(config, items):
    """The chaos matrix's fixed sample (tests/deploy/chaos_sample.py)."""
    deselect(config, items, sorted(BY_NOS))


@pytest.fixture(params=sorted(BY_NOS))
def one(request, make_lab, tmp_path):
    name = BY_NOS[request.param]
    lab = make_lab(*specs([name]))
    lab.advance(30)
    f = fleet(lab, [name], tmp_path)
    return lab, lab[name], f.targets[0], f.desired[name], Run(tmp_path / "state")
