"""`netcfg report PATH --base REF` on a real git repository: the example inventory committed,
then a second commit that sets one host port's MTU to 9000 on leaf-su1-r1, another hash seed
on spine1 and a waiver. Expected values are written by hand:

- Cumulus `link mtu` is the Linux interface MTU, the frame less its 14-byte Ethernet header
  (docs/render-cumulus.md, NVIDIA's "MTU" page): 9216 - 14 = 9202 before, 9000 - 14 = 8986
  after; the frame itself (netcfg's MTU) 9216 -> 9000.
- the example's spine seed is 25 (inventories/example/fabric.yaml), the override 26; NVIDIA:
  "Configuring the hash seed restarts the switchd service, which causes all network ports
  to reset" (docs/render-cumulus.md), so spine1's change is disruptive and leaf-su1-r1's is
  not.
- the other ten switches do not change, and the report does not name them.
- DCQCN's additive-increase rate is the NICs' alone: the ConnectX firmware's default 5 (as
  `mlxconfig` lists it, ../shared/specs/dcqcn-ecn-ecmp.md section 2) becomes 10 in the one
  host NIC profile (connectx-7), and no switch changes for it.
- the example is a two-tier Clos with up/down routing: deadlock free at both commits.

The HTML is opened in Debian's headless Chromium through the DevTools protocol (over a pipe):
no console message, no request but the file itself, and in a screenshot the summary table's
colours where Chromium says the table is (the PNG read with zlib, by hand).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"
INVENTORY = "inventories/example"
CHANGED = {"leaf-su1-r1", "spine1"}
UNCHANGED = {f"leaf-su1-r{i}" for i in range(2, 9)} | {"spine2", "spine3", "spine4"}
WAIVER = "lldpd runs by default; accepted for this rack"

#: the summary table's colours in the page's style sheet (header, rows), as RGB
HEADER_RGB, ROW_RGB = (0x1F, 0x4E, 0x79), (0xFF, 0xF2, 0xCC)

CHANGE = """
overrides:
  ports:
    "leaf-su1-r1:swp1s0": {mtu: 9000}
  devices:
    spine1: {ecmp_seed: 26}

dcqcn:
  rp: {rpg_ai_rate: 10}

waivers:
  - rule: CAP010
    devices: ["leaf-su1-r1"]
    reason: "WAIVER"
""".replace("WAIVER", WAIVER)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), "-c", "user.name=netcfg test",
                           "-c", "user.email=test@example.invalid", *args],
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def netcfg(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def in_process(cwd: Path, *args: str) -> Any:
    """The command through click's test runner, in `cwd` (cheaper than a process)."""
    from click.testing import CliRunner

    from netcfg.cli import main

    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path_factory.mktemp("gitops")
    _git(repo, "init", "-q", "-b", "main")
    shutil.copytree(EXAMPLE, repo / INVENTORY)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "the example fabric")
    fabric = repo / INVENTORY / "fabric.yaml"
    fabric.write_text(fabric.read_text() + CHANGE)
    _git(repo, "commit", "-q", "-am", "one host port at MTU 9000, spine1's seed, DCQCN, a waiver")
    return repo


def verify_said(where: Path) -> Path:
    """A report `netcfg verify --format json` writes (its own serializer), of one failed
    check on leaf-su1-r1 and a spine it could not reach."""
    from netcfg.verify.checks import Check
    from netcfg.verify.report import as_json
    from netcfg.verify.run import DeviceReport, VerifyResult

    said = VerifyResult("example", None, [
        DeviceReport("leaf-su1-r1", "cumulus", [
            Check("VFY004", "leaf-su1-r1", "swp1s0", True, "up"),
            Check("VFY006", "leaf-su1-r1", "swp1s0", False, "MTU 9202, planned 8986")]),
        DeviceReport("spine1", "cumulus", errors=["connect: timed out"])])
    where.write_text(as_json(said))
    return where


@pytest.fixture(scope="module")
def report(repo: Path) -> dict[str, Any]:
    """The command run once: its exit code, JSON, and the two files it wrote."""
    verify = verify_said(repo.parent / "verify.json")
    done = netcfg(repo, "report", INVENTORY, "--base", "HEAD~1", "--out", "pr",
                  "--format", "json", "--verify", str(verify))
    assert done.returncode == 0, done.stdout + done.stderr
    return {"json": json.loads(done.stdout),
            "md": (repo / "pr" / "report.md").read_text(),
            "html": repo / "pr" / "report.html"}


def test_only_the_changed_switches_with_the_values_they_change(report):
    devices = {d["device"]: d for d in report["json"]["devices"]}
    assert set(devices) == CHANGED
    leaf, spine = devices["leaf-su1-r1"], devices["spine1"]
    assert leaf["sections"] == [{"section": "interface swp1s0", "family": "interface",
                                 "change": "changed",
                                 "values": [{"setting": "link.mtu", "before": "9202",
                                             "after": "8986"}]}]
    assert leaf["meaning"] == [{"fact": "MTU (frame)", "subject": "swp1s0",
                                "before": "9216", "after": "9000"}]
    assert leaf["disruptive"] == []
    assert spine["sections"] == [{"section": "system forwarding",
                                  "family": "system forwarding", "change": "changed",
                                  "values": [{"setting": "hash-seed", "before": "25",
                                              "after": "26"}]}]
    assert len(spine["disruptive"]) == 1 and "hash-seed" in spine["disruptive"][0]
    assert "switchd" in spine["disruptive"][0]
    assert spine["meaning"] == []  # the seed is not a fact of the lossless chain or BGP
    assert report["json"]["switches"] == 12
    assert report["json"]["hosts"] == [{"nic": "connectx-7", "status": "changed", "values": [
        {"setting": "dcqcn.roce_rp.rpg_ai_rate", "before": "5", "after": "10"}]}]


def test_the_repository_is_left_as_it_was(report, repo):
    """The base is read with `git archive`: no worktree, no index change, no checkout; only
    the report's own directory is new."""
    assert len(_git(repo, "worktree", "list").splitlines()) == 1
    assert _git(repo, "status", "--porcelain").splitlines() == ["?? pr/"]
    assert _git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"


def test_the_markdown_names_those_values_and_no_other_switch(report):
    md = report["md"]
    assert "| `interface swp1s0` | `link.mtu` | `9202` | `8986` |" in md
    assert "| MTU (frame) | `9216` | `9000` | `swp1s0` |" in md
    assert "| `system forwarding` | `hash-seed` | `25` | `26` |" in md
    assert "| Switches changed | 2 of 12 |" in md
    assert "| Disruptive | 1: `spine1` |" in md
    assert "| connectx-7 | `dcqcn.roce_rp.rpg_ai_rate` | `5` | `10` |" in md
    for name in UNCHANGED:
        assert not re.search(rf"\b{re.escape(name)}\b", md), name
    # not a text diff: no hunks, no +/- lines (a list item is a disruptive change's bullet)
    assert "@@" not in md and not re.search(r"^\+", md, re.M)
    assert all(line.startswith("- **`spine1`**: ") for line in md.splitlines()
               if line.startswith("-"))


def test_the_markdown_tables_are_tables_to_a_markdown_parser(report):
    markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py parses it")
    page = markdown_it.MarkdownIt("commonmark").enable("table").render(report["md"])
    cells = re.findall(r"<td>(.*?)</td>", page)
    assert "<code>interface swp1s0</code>" in cells and "<code>8986</code>" in cells
    assert "<strong>yes</strong>" in cells  # spine1's row of the switch table
    assert "\\|" not in page


def test_lint_findings_keep_their_waiver_and_the_deadlock_verdict(report, repo):
    from netcfg.lint.run import lint

    rows = report["json"]["lint"]
    assert len(rows) == len(lint(repo / INVENTORY).results)  # what lint reports, no other
    waived = [r for r in rows if r["waived"] is not None]
    assert waived and all(r["waived"] == WAIVER for r in waived)
    assert all(r["rule"] == "CAP010" for r in waived)
    assert not any(r["new"] for r in rows)  # the base had them too, unwaived
    assert f"waived ({WAIVER})" in report["md"]
    assert report["json"]["deadlock"]["verdict"] == "deadlock_free"
    assert report["json"]["base_deadlock"]["verdict"] == "deadlock_free"
    assert "| Deadlock | deadlock free" in report["md"]


def test_what_verify_last_said_is_shown_when_its_json_is_given(report):
    md = report["md"]
    assert "### Verify" in md
    assert "| leaf-su1-r1 | VFY006 (error) | swp1s0 | MTU 9202, planned 8986 |" in md
    assert "| spine1 | not verified | | connect: timed out |" in md


def test_a_base_that_is_no_commit_and_a_path_outside_git_are_usage_errors(repo, tmp_path):
    done = in_process(repo, "report", INVENTORY, "--base", "no-such-branch", "--out", "x")
    assert done.exit_code == 2 and "no-such-branch" in done.stderr
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert not (repo / "x").exists()
    outside = tmp_path / "plain"
    shutil.copytree(EXAMPLE, outside)
    done = in_process(tmp_path, "report", str(outside), "--base", "main", "--out", "y")
    assert done.exit_code == 2 and "not in a git repository" in done.stderr


def test_a_new_inventory_is_all_new_switches_and_an_invalid_one_exits_1(tmp_path):
    """The base has no inventory yet: every switch is new. The working tree's intent then
    breaks (a DSCP above 63): the report is still written, names the error, exits 1."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "README").write_text("fabrics\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "empty")
    shutil.copytree(EXAMPLE, tmp_path / INVENTORY)
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "the example fabric")
    done = in_process(tmp_path, "report", INVENTORY, "--base", "HEAD~1", "--out", "a",
                      "--format", "json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert {d["status"] for d in doc["devices"]} == {"new"} and len(doc["devices"]) == 12
    assert any("does not exist at HEAD~1" in n for n in doc["notes"])
    assert doc["verify"] is None  # none given: the report has no such part
    assert "### Verify" not in (tmp_path / "a" / "report.md").read_text()
    fabric = tmp_path / INVENTORY / "fabric.yaml"
    fabric.write_text(fabric.read_text().replace("dscp: [26]", "dscp: [64]"))
    done = in_process(tmp_path, "report", INVENTORY, "--base", "HEAD", "--out", "b")
    assert done.exit_code == 1
    md = (tmp_path / "b" / "report.md").read_text()
    assert "the intent does not validate" in md
    assert re.search(r"\| error( \*\*new\*\*)? \| \w+ \|", md)  # lint names the error


def test_a_fabric_wide_mtu_is_one_row_per_group_of_switches_alike(tmp_path):
    """fabric.mtu 9216 -> 9100 on the example cut to 8 servers of 2 NICs and 2 spines (1:1):
    2 rail leaves of 8 host and 8 spine ports, 2 spines of 2 leaves x 8 uplinks / 2 = 8
    ports; every port's `link mtu` goes from 9216 - 14 = 9202 to 9100 - 14 = 9086. The
    leaves change alike, the spines alike: two groups of one row each, not 48 lines."""
    from netcfg.report.build import Report
    from netcfg.report.changes import compare_fabrics
    from netcfg.report.markdown import markdown
    from netcfg.report.values import Value
    from netcfg.validate import validate

    base, changed = tmp_path / "base", tmp_path / "changed"
    shutil.copytree(EXAMPLE, base)
    fabric = base / "fabric.yaml"
    text = fabric.read_text()
    for was, now in (("nodes_per_su: 32\n", "nodes_per_su: 8\n"), ("spines: 4\n", "spines: 2\n"),
                     ("gpus: 8, nics: 8,", "gpus: 2, nics: 2,")):
        assert was in text
        text = text.replace(was, now)
    fabric.write_text(text)
    shutil.copytree(base, changed)
    fabric = changed / "fabric.yaml"
    fabric.write_text(fabric.read_text().replace("  mtu: 9216\n", "  mtu: 9100\n"))
    diff = compare_fabrics(validate(base), validate(changed))
    groups = diff.alike()
    assert [[d.name for d in g] for g in groups] == [["leaf-su1-r1", "leaf-su1-r2"],
                                                      ["spine1", "spine2"]]
    for group, ports in zip(groups, (16, 8)):
        (row,) = group[0].rows()
        assert len(row.sections) == ports and row.value == Value("link.mtu", "9202", "9086")
        (fact,) = group[0].facts()
        assert fact[:3] == ("MTU (frame)", "9216", "9100") and len(fact[3]) == ports
        assert group[0].disruptive == []
    md = markdown(Report("example", "example", "base", "0" * 40, diff))
    assert md.count("| `link.mtu` | `9202` | `9086` |") == 2
    assert "### leaf-su1-r1 and 1 more alike (cumulus, leaf)" in md
    assert "### spine1 and 1 more alike (cumulus, spine)" in md


def test_names_from_the_intent_are_escaped_in_both_outputs():
    """A section or value holding markup (a port description is the user's text) is text in
    the HTML (autoescaped) and in the Markdown (a forge renders HTML in a comment)."""
    from netcfg.report.build import Report
    from netcfg.report.changes import DeviceDiff, FabricDiff, SectionDiff
    from netcfg.report.markdown import markdown
    from netcfg.report.page import html
    from netcfg.report.values import Value

    evil = "<script>alert(1)</script>|x"
    d = DeviceDiff("leaf1", "leaf", "eos", "changed", base_nos="eos", sections=[
        SectionDiff("interface Ethernet1", "interface", "changed",
                    [Value("description", "a", evil)])])
    r = Report("f", "inv", "main", "0" * 40, FabricDiff([d], 1))
    page, md = html(r), markdown(r)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;|x" in page
    assert "<script>" not in md.replace("`<script>", "")  # only inside a code span
    assert "| `description` | `a` | `<script>alert(1)</script>\\|x` |" in md


def test_section_values_of_line_configs():
    """EOS-like and Junos set-form sections, written by hand."""
    from netcfg.report.values import Value, section_values

    before = "interface Ethernet1\n   mtu 9202\n   speed 400g\n   description a"
    after = "interface Ethernet1\n   mtu 9086\n   speed 400g\n   description a"
    assert section_values("lines", "interface Ethernet1", before, after) == [
        Value("mtu", "9202", "9086")]
    # the same setting under two classes of one policy: one value change
    assert section_values("lines", "policy-map x", "class a\nmtu 9216\nclass b\nmtu 9216",
                          "class a\nmtu 9100\nclass b\nmtu 9100") == [
        Value("mtu", "9216", "9100")]
    # Junos: the section's key is left out; a setting of two values pairs its tails
    key = "class-of-service drop-profiles"
    assert section_values("lines", key, f"{key} p interpolate fill-level 0.80 8.04",
                          f"{key} p interpolate fill-level 0.81 8.10") == [
        Value("p interpolate fill-level", "0.80 8.04", "0.81 8.10")]
    # lines stated several times are set or no longer set, one by one
    # NX-OS: a neighbour's description inside `router bgp`, read with the block it is in
    from netcfg.report.values import block_settings
    from netcfg.vendors.raw import line_leaves

    bgp = "router bgp 65001\n  neighbor 10.0.0.1\n    description {}\n    remote-as 65002\n"
    was = block_settings(line_leaves(bgp.format("leaf1:swp1")))
    now = block_settings(line_leaves(bgp.format("leaf1:Ethernet0")))
    key = "router bgp 65001"
    assert section_values("lines", key, None, None, (was[key], now[key])) == [
        Value("neighbor 10.0.0.1 description", "leaf1:swp1", "leaf1:Ethernet0")]
    # a list of one-word entries (EOS: the `ntp server` lines are one section): entries set
    # or no longer set, one by one
    assert section_values("lines", "ntp server", "ntp server 192.0.2.1\nntp server 192.0.2.2",
                          "ntp server 192.0.2.1\nntp server 192.0.2.3") == [
        Value("192.0.2.2", "set", None), Value("192.0.2.3", None, "set")]


def test_section_values_of_structured_configs():
    """NVUE YAML and CONFIG_DB JSON subtrees, written by hand."""
    from netcfg.report.values import Value, section_values

    assert section_values("tree", "interface swp1", "link:\n  mtu: 9202\n  speed: 400G\n",
                          "link:\n  mtu: 9086\n  speed: 400G\n") == [
        Value("link.mtu", "9202", "9086")]
    assert section_values("tree", "PORT|Ethernet0", '{"mtu": "9202", "fec": "rs"}',
                          '{"mtu": "9202"}') == [Value("fec", "rs", None)]


# ------------------------------------------------------------------ the HTML in Chromium

def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("NETCFG_REQUIRE_CHROMIUM"):
            pytest.fail("NETCFG_REQUIRE_CHROMIUM is set but chromium is not installed")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium): the "
                    "report's HTML is not opened in a browser")
    return found


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-
    pipe: commands on fd 3, answers and events on fd 4, each JSON text ended by NUL)."""

    #: seconds any one answer may take before the test gives up (a hang guard, not a timing)
    PATIENCE = 120

    def __init__(self, browser: str, profile: Path) -> None:
        to_child, self._send = os.pipe()
        self._recv, from_child = os.pipe()

        def pipes() -> None:  # in the child: fds 3 and 4, whatever numbers the pipes got
            a = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", "--remote-debugging-pipe",
             # no name resolves: a page that reaches out fails at once, offline or not
             "--host-resolver-rules=MAP * ~NOTFOUND",
             "--force-color-profile=srgb", "--force-device-scale-factor=1",
             "--window-size=1200,900", "about:blank"],
            preexec_fn=pipes, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self._buf, self._id = b"", 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._send, json.dumps(msg).encode() + b"\0")
        answer = self.wait(lambda m: m.get("id") == self._id)
        assert "error" not in answer, answer
        return dict(answer.get("result", {}))

    def wait(self, wanted: Any) -> dict[str, Any]:
        end = time.monotonic() + self.PATIENCE
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "method" in msg:
                    self.events.append(msg)
                if wanted(msg):
                    return dict(msg)
            left = end - time.monotonic()
            assert left > 0, "Chromium did not answer"
            select.select([self._recv], [], [], left)
            chunk = os.read(self._recv, 1 << 20)
            assert chunk, "Chromium closed the DevTools pipe"
            self._buf += chunk

    def close(self) -> None:
        try:
            self.call("Browser.close")
        finally:
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            os.close(self._send)
            os.close(self._recv)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One headless Chromium for the module's pages, with a fresh profile."""
    tools = DevTools(_chromium(), tmp_path_factory.mktemp("chromium-profile"))
    yield tools
    tools.close()


def open_page(tools: DevTools, url: str) -> dict[str, Any]:
    """Load `url` in a new tab: what its console said, every request it made, the summary
    table's header and body boxes (None without one) and a PNG screenshot."""
    target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = tools.call("Target.attachToTarget",
                         {"targetId": target, "flatten": True})["sessionId"]
    seen = len(tools.events)
    for domain in ("Runtime", "Log", "Network", "Page"):
        tools.call(f"{domain}.enable", session=session)
    tools.call("Page.navigate", {"url": url}, session)
    tools.wait(lambda m: m.get("method") == "Page.loadEventFired"
               and m.get("sessionId") == session)
    box = tools.call("Runtime.evaluate", {
        "expression": "(() => { const t = document.querySelector('table.summary');"
                      " if (!t) return null; const h = t.tHead.getBoundingClientRect(),"
                      " b = t.tBodies[0].getBoundingClientRect();"
                      " return [h.left, h.top, h.right, h.bottom, b.left, b.top,"
                      " b.right, b.bottom]; })()",
        "returnByValue": True}, session)["result"].get("value")
    shot = tools.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
    tools.call("Target.closeTarget", {"targetId": target})
    events = [e for e in tools.events[seen:] if e.get("sessionId") == session]
    said = [e for e in events if e["method"] in (
        "Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded")]
    requests = [e["params"]["request"]["url"] for e in events
                if e["method"] == "Network.requestWillBeSent"]
    return {"console": said, "requests": requests, "box": box,
            "png": base64.b64decode(shot)}


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced RGB or RGBA PNG (the PNG
    specification's filters, by hand)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) *
                                                          (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) \
                    & 0xFF
        prev = line
        rows.append(bytes(line[i] for x in range(width) for i in range(x * bpp, x * bpp + 3)))
    return width, height, rows


def share(rows: list[bytes], box: tuple[float, ...], rgb: tuple[int, int, int]) -> float:
    """How much of the box's pixels have exactly that colour."""
    left, top, right, bottom = (int(round(v)) for v in box)
    want, hits, total = bytes(rgb), 0, 0
    for y in range(max(top, 0), min(bottom, len(rows))):
        line = rows[y]
        for x in range(max(left, 0), min(right, len(line) // 3)):
            total += 1
            hits += line[x * 3:x * 3 + 3] == want
    return hits / total if total else 0.0


def test_the_browser_check_sees_a_console_error_and_an_outside_request(browser, tmp_path):
    """The check below is not blind: a page that logs an error and loads an image from
    elsewhere is caught on both counts."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title></head>'
                    '<body><script>console.error("broken")</script>'
                    '<img src="http://example.invalid/logo.png" alt=""></body></html>')
    seen = open_page(browser, page.as_uri())
    assert any(e["method"] == "Runtime.consoleAPICalled" for e in seen["console"])
    assert "http://example.invalid/logo.png" in seen["requests"]
    assert seen["box"] is None


def test_the_html_opens_in_chromium_without_a_console_message_and_shows_the_summary(
        browser, report):
    seen = open_page(browser, report["html"].as_uri())
    assert seen["console"] == [], seen["console"]
    assert seen["requests"] == [report["html"].as_uri()]  # self-contained: nothing else
    head, body = tuple(seen["box"][:4]), tuple(seen["box"][4:])
    assert body[1] >= head[3] - 1 and body[3] - body[1] > 60  # four rows under the header
    width, height, rows = png_pixels(seen["png"])
    assert head[0] >= 0 and body[2] <= width and body[3] <= height  # the table is on screen
    # inside the table its colours fill the cells (text and borders take the rest) ...
    assert share(rows, head, HEADER_RGB) > 0.5
    assert share(rows, body, ROW_RGB) > 0.5
    # ... and the row colour is nowhere else on the screen
    outside = share(rows, (0, 0, width, height), ROW_RGB) * width * height
    inside = share(rows, body, ROW_RGB) * (body[2] - body[0]) * (body[3] - body[1])
    assert outside - inside < 0.01 * inside


def test_the_ci_examples_run_the_report_with_real_options_and_post_its_markdown():
    import yaml

    from netcfg.cli import main

    known = {o for p in main.commands["report"].params for o in getattr(p, "opts", [])}
    for name in ("github-actions.yml", "gitlab-ci.yml"):
        text = (ROOT / "docs" / "ci" / name).read_text()
        yaml.safe_load(text)
        joined = re.sub(r"\\\n\s*", " ", text)  # shell continuation lines as one
        runs = [line for line in joined.splitlines()
                if "netcfg report " in line and not line.lstrip().startswith("#")]
        assert runs, name
        for line in runs:
            used = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line.split("||")[0]))
            assert {"--base", "--out"} <= used <= known, (name, line)
        assert "netcfg-report/report.md" in text  # the Markdown is what is posted


def test_a_finding_standing_for_more_switches_is_not_new():
    """Lint merges a finding of many switches into one naming the first and a count: a
    switch added elsewhere changes the count, not the finding."""
    from netcfg.findings import Finding
    from netcfg.report.build import _identity

    def said(message: str) -> Finding:
        return Finding("CAP010", "info", message, device="leaf1")

    base = said("cumulus config does not state lldp (leaf1 and 11 more cumulus switches)")
    head = said("cumulus config does not state lldp (leaf1 and 12 more cumulus switches)")
    assert _identity(base) == _identity(head)
    assert _identity(said("MTU 9000")) != _identity(said("MTU 9216"))


def test_the_outputs_replace_only_what_netcfg_wrote(report, repo, tmp_path):
    """The report's two files carry netcfg's marker (an HTML comment, after the page's
    doctype), so the next report replaces them; a report.md of the user's is refused in one
    line before anything is written, and keeps its bytes."""
    assert report["md"].startswith("<!-- written by netcfg report -->\n")
    assert report["html"].read_text().startswith(
        "<!DOCTYPE html>\n<!-- written by netcfg report -->\n")
    again = in_process(repo, "report", INVENTORY, "--base", "HEAD~1", "--out", "pr")
    assert again.exit_code == 0, again.output
    theirs = tmp_path / "out"
    theirs.mkdir()
    (theirs / "report.md").write_text("# Release notes, by hand\n")
    refused = in_process(repo, "report", INVENTORY, "--base", "HEAD~1", "--out", str(theirs))
    assert refused.exit_code == 1
    assert "exists and netcfg did not write it" in refused.output
    assert (theirs / "report.md").read_text() == "# Release notes, by hand\n"
    assert not (theirs / "report.html").exists()
