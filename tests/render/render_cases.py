"""Shared by the per-NOS render tests: bundled inventories switched to one NOS, plans of the
devices running a NOS, and the round-trip / golden / StrictUndefined checks."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import pytest
import yaml

from netcfg.render import environment, render_plan
from netcfg.render.plan import DevicePlan, PlanBuilder
from netcfg.validate import validate
from netcfg.vendors import vendor

if TYPE_CHECKING:
    from netcfg.lab.junos.yang import JunosYang

ROOT = Path(__file__).resolve().parents[2]
INVENTORIES = ROOT / "inventories"
GOLDEN = Path(__file__).resolve().parent / "golden"
BUNDLED = ("example", "multivendor", "gpu2048")
#: devices per inventory checked on the big one (every device on the small ones)
SAMPLE = 24


def swapped(tmp: Path, inventory: str, platform: str) -> Path:
    """Copy of a bundled inventory with every platform (defaults and device overrides) set to
    `platform`. Port overrides are dropped: they name ports in the original NOS's spelling."""
    dst = tmp / inventory
    shutil.copytree(INVENTORIES / inventory, dst)
    path = dst / "fabric.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["platforms"] = {role: platform for role in doc["platforms"]}
    overrides = doc.get("overrides") or {}
    overrides.pop("ports", None)
    for over in overrides.get("devices", {}).values():
        if "platform" in over:
            over["platform"] = platform
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


@cache
def _fabric(path: str):
    result = validate(path)
    assert result.ok, [f.text() for f in result.findings]
    return result.fabric, result.physics


def nos_plans(path: Path, nos: str, sample: int = SAMPLE) -> list[DevicePlan]:
    """Plans of the devices running `nos`; above `sample` devices a deterministic sample
    that keeps every role."""
    fabric, physics = _fabric(str(path))
    builder = PlanBuilder(fabric, physics)
    devices = [d for d in fabric.switches() if fabric.platform(d).nos == nos]
    if len(devices) > sample:
        step = len(devices) // sample + 1
        keep = {d.name for d in devices[::step]}
        keep |= {next(d.name for d in devices if d.role == r) for r in {d.role for d in devices}}
        devices = [d for d in devices if d.name in keep]
    return [builder.plan(d) for d in devices]


def plans_for(inventory: str, platform: str | None, nos: str, tmp: Path) -> list[DevicePlan]:
    """Plans of the `nos` devices of a bundled inventory, first switched to `platform`."""
    path = INVENTORIES / inventory / "fabric.yaml"
    if platform is not None:
        path = swapped(tmp, inventory, platform)
    return nos_plans(path, nos)


def roundtrip_cases(nos: str, platform: str, native: set[str]) -> list:
    return [pytest.param(inv, None if inv in native else platform, id=inv) for inv in BUNDLED]


def check_roundtrip(nos: str, inventory: str, platform: str | None, tmp: Path) -> None:
    nos_vendor = vendor(nos)
    plans = plans_for(inventory, platform, nos, tmp)
    assert plans, f"no {nos} device in {inventory}"
    for plan in plans:
        text = render_plan(plan)
        want, got = nos_vendor.expected(plan), nos_vendor.read(text, plan)
        assert want.differences(got) == [], plan.hostname
        assert got == want, plan.hostname


def check_golden(nos: str, names: list[str], ext: str) -> None:
    fabric, physics = _fabric(str(INVENTORIES / "multivendor" / "fabric.yaml"))
    builder = PlanBuilder(fabric, physics)
    for name in names:
        text = render_plan(builder.plan(fabric.devices[name]))
        golden = GOLDEN / nos / f"{name}.{ext}"
        assert golden.read_text() == text, f"{golden.name} differs from the rendered config"


def check_strict_and_stable(nos: str, plan: DevicePlan) -> None:
    assert render_plan(plan) == render_plan(plan)
    template = environment().get_template(vendor(nos).template)
    with pytest.raises(jinja2.UndefinedError):  # StrictUndefined: nothing renders as ""
        template.render()
    with pytest.raises(jinja2.UndefinedError):  # the templates see the typed config only
        template.render(plan=plan)


#: Juniper's own YANG and its validator (../shared, present in CI)
JUNOS_YANG = ROOT.parent / "shared" / "junos-yang" / "validate_junos.py"
#: the multivendor inventory's switch of each NOS the management-plane tests look at
MANAGEMENT_DEVICES = ("leaf-su1-r1", "spine-pod1-1", "core1", "core2", "leaf-su2-r5",
                      "leaf-su2-r1")


def render_multivendor(tmp: Path, extra: str, edit=None) -> dict[str, str]:  # noqa: ANN001
    """The multivendor inventory with `extra` YAML appended to its fabric.yaml (`edit`: a
    function of the file's text applied first), rendered for MANAGEMENT_DEVICES; the
    validation's findings as text under the key "findings"."""
    inventory = tmp / f"inventory-{len(list(tmp.glob('inventory-*')))}"
    inventory.mkdir()
    text = (INVENTORIES / "multivendor" / "fabric.yaml").read_text()
    (inventory / "fabric.yaml").write_text((edit(text) if edit else text) + extra)
    result = validate(inventory)
    assert result.ok, [f.text() for f in result.findings if f.severity == "error"]
    builder = PlanBuilder(result.fabric, result.physics)
    out = {n: render_plan(builder.plan(result.fabric.devices[n])) for n in MANAGEMENT_DEVICES}
    out["findings"] = "\n".join(f.text() for f in result.findings)
    return out


def junos_yang() -> JunosYang:
    """Juniper's YANG through the validator published beside it
    (../shared/junos-yang/validate_junos.py: its parser, its converter and libyang), loaded
    once per process the way the lab loads it (tests/lab/test_junos_yang.py holds that
    loading to the validator's own fixtures); skips where the YANG or libyang is absent (CI
    has both)."""
    from netcfg.lab.junos.yang import JunosYang

    if not JUNOS_YANG.is_file():
        pytest.skip("../shared/junos-yang is not present (CI provides it)")
    yang = JunosYang.from_options({"junos_yang": str(JUNOS_YANG.parent)})
    if yang is None:
        pytest.skip("libyang binding (extra 'yang') not installed")
    return yang


def check_junos_yang(text: str) -> None:
    """A rendered Junos file against Juniper's YANG (`junos_yang`)."""
    assert junos_yang().errors(text) == []


def junos_unchecked(text: str) -> list[str]:
    """The statement paths of `text` Juniper's YANG let through unchecked: exactly the
    shared-buffer partitions, which its published Evolved model lacks (../shared/junos-yang
    README, "Known gap"; the validator's `--skip "class-of-service shared-buffer"`)."""
    return sorted(where for _, where in junos_yang().not_checked(text))


def check_nvue(text: str, release: str) -> None:
    """A rendered NVUE document as the lab's Cumulus box reads a startup document, against
    its schema for `release` (written from NVIDIA's NVUE reference)."""
    from netcfg.lab.cumulus import config as nvue
    from netcfg.lab.cumulus.schema import release as parse_release
    from netcfg.lab.cumulus.schema import validate as nvue_validate

    tree: dict = {}
    nvue.apply_ops(tree, nvue.parse_document(text))
    nvue_validate(tree, parse_release(release + ".0"))
