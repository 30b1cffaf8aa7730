"""What each selected device should run: rendered from the intent now, or the files a GitOps
review approved (`--configs DIR`, as written by `netcfg render`). Either way the meaning-level
facts come from the intent's plan, so drift and post-checks speak of PFC, ECN and DSCP."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from netcfg.deploy.engine import Desired
from netcfg.physics import Physics
from netcfg.render.engine import file_name, render_plan
from netcfg.render.plan import PlanBuilder
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import vendor


class DesiredError(Exception):
    """A config to deploy is missing or unreadable."""


def desired_configs(fabric: Fabric, physics: Physics, devices: list[Device],
                    configs: Path | None = None) -> dict[str, Desired]:
    builder = PlanBuilder(fabric, physics)
    out: dict[str, Desired] = {}
    for dev in devices:
        plan = builder.plan(dev)
        if configs is None:
            text = render_plan(plan)
        else:
            path = configs / file_name(plan)
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise DesiredError(f"{dev.name}: cannot read {path}: {exc.strerror}") from None
        nos = vendor(plan.nos)
        out[dev.name] = Desired(text, nos.expected(plan), partial(nos.read, plan=plan))
    return out
