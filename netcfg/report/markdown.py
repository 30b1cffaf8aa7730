"""The report as GitHub-flavoured Markdown, for a pull request's comment.

A forge caps a comment (GitHub: 65,536 characters), so the summary, the switch table, the
disruptive changes, lint and verify always come first and whole; each switch's values follow
while they fit in MAX_CHARS, and the rest is named with a pointer to the HTML report. Every
cell is escaped for a table (`|`) and for the HTML a forge would otherwise read (`<`).
"""

from __future__ import annotations

from collections.abc import Sequence

from netcfg.report.build import Report
from netcfg.report.changes import DeviceDiff
from netcfg.report.values import Side

#: most characters of the Markdown (GitHub refuses comments over 65,536)
MAX_CHARS = 60_000
#: rows of one switch's changes shown before the rest is counted
MAX_ROWS = 40
#: sections named in one row before the rest is counted
MAX_SECTIONS = 6
#: lint findings and failed verify checks shown
MAX_FINDINGS = 50
#: switches listed in the summary's table
MAX_SWITCHES = 200


def cell(text: object) -> str:
    """Plain text in a table cell."""
    return (" ".join(str(text).split()).replace("\\", "\\\\").replace("|", "\\|")
            .replace("<", "&lt;").replace(">", "&gt;"))


def code(text: object) -> str:
    """Text as code in a table cell (a backtick inside gets a longer fence)."""
    body = " ".join(str(text).split()).replace("|", "\\|")
    fence = "``" if "`" in body else "`"
    return f"{fence} {body} {fence}" if fence == "``" else f"`{body}`"


def side(value: Side) -> str:
    return "—" if value is None else code(value)


def named(items: Sequence[str], limit: int = MAX_SECTIONS) -> str:
    shown = ", ".join(code(i) for i in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def verdict(d: dict | None) -> str:
    if d is None:
        return "not checked"
    return f"{d['verdict'].replace('_', ' ')} ({d['model']}, {d['failures']} failed link(s))"


def markdown(r: Report) -> str:
    head = _head(r)
    groups = r.diff.alike() if r.diff else []
    tail = _lint(r) + _verify(r)
    # what is left out is named in one line at the end: its room is kept
    out, used = list(head), sum(len(x) + 1 for x in head + tail) + 1_000
    left: list[str] = []
    for group in groups:
        block = _device(group)
        size = sum(len(x) + 1 for x in block)
        if used + size > MAX_CHARS:
            left += [d.name for d in group]
            continue
        out += block
        used += size
    out += _hosts(r)
    if left:
        out += ["", f"_{len(left)} more switch(es) change ({', '.join(left[:20])}"
                    f"{' ...' if len(left) > 20 else ''}): their values are in the HTML "
                    "report._"]
    return "\n".join(out + tail) + "\n"


def _head(r: Report) -> list[str]:
    counts = r.counts()
    new = sum(1 for row in r.lint if row.new)
    lines = [f"## netcfg report: fabric `{cell(r.fabric)}`", "",
             f"`{cell(r.path)}` in the working tree against `{cell(r.base_ref)}` "
             f"({r.base_commit[:12]})", ""]
    lines += [f"> {cell(n)}" for n in r.notes] + ([""] if r.notes else [])
    lines += ["| | |", "|---|---|"]
    if r.diff is None:
        lines.append("| Switches | the intent does not validate: nothing rendered (lint below) |")
    else:
        names = [d.name for d in r.diff.devices if d.disruptive]
        lines.append(f"| Switches changed | {len(r.diff.devices)} of {r.diff.switches} |")
        lines.append("| Disruptive | " + (f"{len(names)}: {named(names)}" if names else "none")
                     + " |")
        if r.diff.hosts:
            lines.append(f"| Host NIC profiles changed | {named([h.nic for h in r.diff.hosts])} |")
    lines.append(f"| Lint | {counts['error']} error(s), {counts['warning']} warning(s), "
                 f"{counts['info']} note(s), {counts['waived']} waived; {new} new |")
    lines.append(f"| Deadlock | {verdict(r.deadlock)}; at the base: {verdict(r.base_deadlock)} |")
    if r.verify is not None:
        lines.append(f"| Verify | {cell(r.verify.summary)} ({r.verify.written}) |")
    if r.diff is not None and r.diff.devices:
        lines += ["", "| Switch | NOS | Role | Sections added / changed / removed | "
                  "Disruptive |", "|---|---|---|---|---|"]
        for d in r.diff.devices[:MAX_SWITCHES]:
            counts_ = ("new" if d.status == "new" else "removed" if d.status == "removed"
                       else "all (another NOS)" if d.base_nos != d.nos
                       else f"+{d.count('added')} ~{d.count('changed')} -{d.count('removed')}")
            lines.append(f"| {cell(d.name)} | {cell(_nos(d))} | {cell(d.role)} | {counts_} | "
                         f"{'**yes**' if d.disruptive else 'no'} |")
        lines += _more(len(r.diff.devices), MAX_SWITCHES, 5)
    disrupt = disruptions(r)
    if disrupt:
        lines += ["", "### Disruptive changes", ""]
        lines += [f"- **{named(names)}**: {cell(what)}" for what, names in disrupt[:MAX_FINDINGS]]
        if len(disrupt) > MAX_FINDINGS:
            lines.append(f"- _{len(disrupt) - MAX_FINDINGS} more in the HTML report_")
    return lines


def disruptions(r: Report) -> list[tuple[str, list[str]]]:
    """Each disruptive change once, with the switches it is made on."""
    out: dict[str, list[str]] = {}
    for d in r.diff.devices if r.diff else []:
        for what in d.disruptive:
            out.setdefault(what, []).append(d.name)
    return list(out.items())


def _nos(d: DeviceDiff) -> str:
    return d.nos if d.base_nos in (None, d.nos) else f"{d.base_nos} -> {d.nos}"


def _device(group: list[DeviceDiff]) -> list[str]:
    """One switch's changes, or those of several that change alike."""
    d = group[0]
    title = d.name if len(group) == 1 else f"{d.name} and {len(group) - 1} more alike"
    lines = ["", f"### {cell(title)} ({cell(_nos(d))}, {cell(d.role)})", ""]
    if len(group) > 1:
        lines += [f"The same change on {len(group)} switches: "
                  f"{named([x.name for x in group], MAX_SWITCHES)}", ""]
    if d.note:
        lines += [f"_{cell(d.note)}_", ""]
    rows = d.rows()
    if rows:
        lines += ["| Section | Setting | Before | After |", "|---|---|---|---|"]
        for row in rows[:MAX_ROWS]:
            lines.append(f"| {named(row.sections)} | {code(row.value.setting)} | "
                         f"{side(row.value.before)} | {side(row.value.after)} |")
        lines += _more(len(rows), MAX_ROWS, 4)
    facts = d.facts()
    if facts:
        lines += ["", "What it means for the lossless chain and BGP:", "",
                  "| Fact | Before | After | On |", "|---|---|---|---|"]
        for what, before, after, on in facts[:MAX_ROWS]:
            lines.append(f"| {cell(what)} | {side(before)} | {side(after)} | "
                         f"{named(on) if on else 'the switch'} |")
        lines += _more(len(facts), MAX_ROWS, 4)
    return lines


def _hosts(r: Report) -> list[str]:
    hosts = r.diff.hosts if r.diff else []
    if not hosts:
        return []
    lines = ["", "### Host NIC profiles", "", "| NIC | Setting | Before | After |",
             "|---|---|---|---|"]
    for h in hosts:
        if h.status != "changed":
            lines.append(f"| {cell(h.nic)} | _{h.status}_ | | |")
        for v in h.values[:MAX_ROWS]:
            lines.append(f"| {cell(h.nic)} | {code(v.setting)} | {side(v.before)} | "
                         f"{side(v.after)} |")
        lines += _more(len(h.values), MAX_ROWS, 4)
    return lines


def _lint(r: Report) -> list[str]:
    lines = ["", "### Lint", ""]
    if not r.lint:
        return lines + ["No finding."]
    order = {"error": 0, "warning": 1, "info": 2}
    rows = sorted(r.lint, key=lambda x: (x.waived is not None, order.get(x.severity, 3),
                                         not x.new, x.rule))
    lines += ["| Severity | Rule | Where | Finding |", "|---|---|---|---|"]
    for row in rows[:MAX_FINDINGS]:
        status = (f"waived ({cell(row.waived)})" if row.waived is not None else row.severity)
        lines.append(f"| {status}{' **new**' if row.new else ''} | {row.rule} | "
                     f"{cell(row.where)} | {cell(row.message)} |")
    lines += _more(len(rows), MAX_FINDINGS, 4)
    return lines


def _verify(r: Report) -> list[str]:
    if r.verify is None:
        return []
    v = r.verify
    lines = ["", "### Verify", "",
             f"`{cell(v.file)}` ({v.written}): {cell(v.summary)}"]
    if v.failed or v.unverified:
        lines += ["", "| Switch | Rule | Port | Check |", "|---|---|---|---|"]
        for device, what in v.unverified[:MAX_FINDINGS]:
            lines.append(f"| {cell(device)} | not verified | | {cell(what)} |")
        for device, rule, port, message, severity in v.failed[:MAX_FINDINGS]:
            lines.append(f"| {cell(device)} | {rule} ({severity}) | {cell(port)} | "
                         f"{cell(message)} |")
    return lines


def _more(total: int, shown: int, columns: int) -> list[str]:
    """The last row of a table cut at `shown` of `total` rows: how many the HTML has besides."""
    if total <= shown:
        return []
    return [f"| _{total - shown} more in the HTML report_ " + "| " * (columns - 1) + "|"]
