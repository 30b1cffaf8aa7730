"""Which extra of the netcfg-roce distribution installs what a command needs beyond the base.

The base install validates, proves, renders and lints (pydantic, PyYAML, Jinja2, click, numpy,
scipy, orjson). Talking to switches (NAPALM and its transports, the lab's emulators) comes with
extras declared in pyproject.toml; a command run without its extra says in one line which to
install, before it does any work, instead of failing on an import halfway.
"""

from __future__ import annotations

import json
import shlex
from importlib.metadata import distributions
from importlib.util import find_spec
from urllib.parse import unquote, urlsplit

#: the distribution's name in the package index (`netcfg` there is an unrelated project)
DISTRIBUTION = "netcfg-roce"

#: top-level module -> the extra that installs it
EXTRA_OF_MODULE = {
    "napalm": "deploy", "netmiko": "deploy", "paramiko": "deploy", "asyncssh": "deploy",
    "aiohttp": "deploy", "cryptography": "deploy", "lxml": "deploy", "ncclient": "deploy",
    "jnpr": "deploy", "pyeapi": "deploy",
    "nornir": "nornir", "nornir_napalm": "nornir",
    "distributed": "cluster", "libyang": "yang", "psycopg": "postgresql",
}

#: command -> (its extra, the modules it imports from that extra)
COMMANDS = {
    "diff": ("deploy", ("napalm", "netmiko")),
    "push": ("deploy", ("napalm", "netmiko")),
    "rollback": ("deploy", ("napalm", "netmiko")),
    "lab": ("deploy", ("asyncssh", "aiohttp", "cryptography", "napalm")),
    "verify": ("verify", ("napalm", "netmiko")),
}


def install_hint(extra: str) -> str:
    """The pip command that adds `extra` to this installation: from the checkout netcfg is
    installed from in editable mode (pip's direct_url.json, PEP 610), else from the index."""
    checkout = editable_checkout()
    if checkout is not None:
        return f"pip install -e {shlex.quote(f'{checkout}[{extra}]')}"
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def editable_checkout() -> str | None:
    """The directory of an editable install of netcfg-roce, None for any other install."""
    # every record of the name: a source tree's own egg-info (no direct_url.json) may come
    # first on the path, before what pip installed
    for found in distributions(name=DISTRIBUTION):
        try:
            record = json.loads(found.read_text("direct_url.json") or "null")
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("dir_info", {}).get("editable"):
            url = urlsplit(str(record.get("url", "")))
            return unquote(url.path) if url.scheme == "file" and url.path else None
    return None


def missing_for(command: str) -> str | None:
    """The one line to print when `command` cannot run for want of its extra, else None."""
    if command not in COMMANDS:
        return None
    extra, modules = COMMANDS[command]
    absent = [m for m in modules if find_spec(m) is None]
    if not absent:
        return None
    return f"netcfg {command} needs the {extra} extra ({', '.join(absent)} not installed): " \
           f"{install_hint(extra)}"


def missing_module(command: str | None, name: str | None) -> str | None:
    """The one line for an optional module found missing while a command ran, else None (a
    module no extra installs is a bug, not a missing extra)."""
    top = (name or "").split(".")[0]
    extra = EXTRA_OF_MODULE.get(top)
    if extra is None:
        return None
    who = f"netcfg {command}" if command else "netcfg"
    return f"{who} needs the {extra} extra ({top} not installed): {install_hint(extra)}"
