"""The report as one self-contained HTML page (Jinja2, autoescaped): inline styles, no
script, no image, nothing fetched, and a Content-Security-Policy that forbids loading anything,
so the file reads the same as a CI artifact, in a mail or offline."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

from netcfg.report.build import Report
from netcfg.report.changes import DeviceDiff
from netcfg.report.markdown import disruptions, verdict


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    return env.get_template("report.html.j2")


def _nos(d: DeviceDiff) -> str:
    return d.nos if d.base_nos in (None, d.nos) else f"{d.base_nos} -> {d.nos}"


def html(r: Report) -> str:
    devices = r.diff.devices if r.diff else []
    order = {"error": 0, "warning": 1, "info": 2}
    return _template().render(
        r=r, counts=r.counts(), new_findings=sum(1 for row in r.lint if row.new),
        verdict=verdict, nos=_nos,
        disruptive_names=[d.name for d in devices if d.disruptive],
        disruptive_rows=disruptions(r), groups=r.diff.alike() if r.diff else [],
        lint_rows=sorted(r.lint, key=lambda x: (x.waived is not None,
                                                order.get(x.severity, 3), not x.new, x.rule)),
    ) + "\n"
