"""The NX-OS command line shared by NX-API and the SSH shell: exec commands (show, dir, files,
checkpoints, rollback, configure replace, copy) and configuration mode.

One `Cli` is one CLI context: an NX-API request (whose configuration mode lasts for the
request's batch, entered implicitly by a configuration command, as NX-API does) or an SSH
session (`configure terminal` needed). Errors raise `CliError` with the NX-OS text.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from netcfg.lab.cfgtree import ConfigError
from netcfg.lab.nxos import oper as nxos_oper
from netcfg.lab.nxos import show
from netcfg.lab.nxos.config import NxosEditor, rollback_patch
from netcfg.lab.oper import wiring_of

if TYPE_CHECKING:
    from netcfg.lab.nxos.emulator import NxosEmulator

INVALID = "% Invalid command at '^' marker."
INCOMPLETE = "% Incomplete command at '^' marker."

#: whole-token abbreviations NX-OS users (and NAPALM: `copy run startup-config`) type
_ABBREV = {"sh": "show", "conf": "configure", "config": "configure", "t": "terminal",
           "term": "terminal", "run": "running-config", "start": "startup-config",
           "int": "interface", "checkpoint": "checkpoint"}


class CliError(Exception):
    """A command NX-OS refuses; `token` places the `^` marker (None: no marker line)."""

    def __init__(self, message: str, token: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


class Cli:
    def __init__(self, dev: NxosEmulator, implicit_config: bool) -> None:
        self.dev = dev
        self.implicit_config = implicit_config
        self.editor: NxosEditor | None = None
        #: set when a configuration command of this context was applied (the commit point)
        self.configured = False

    # --- prompt (SSH) ---------------------------------------------------------------------
    def prompt(self) -> str:
        if self.editor is None:
            return f"{self.dev.hostname}# "
        mode = self.editor.mode
        suffix = "" if mode == "config" else "-" + _PROMPT_MODES.get(mode, mode)
        return f"{self.dev.hostname}(config{suffix})# "

    # --- dispatch ---------------------------------------------------------------------------
    def run(self, line: str, structured: bool = False) -> Any:
        """Run one command; text output (or a structured body for `show` with `structured`);
        None for configuration commands."""
        command, pipe, filt = line.partition(" | ")
        words = command.split()
        if not words:
            return ""
        low = [_ABBREV.get(w.lower(), w.lower()) for w in words]
        if low[0] == "show":
            if pipe:
                return self._piped(words, low, filt.split())
            return self._show(words, low, structured)
        if low[0] == "end":
            self.editor = None
            return ""
        if low[0] == "exit":
            if self.editor is not None and not self.editor.exit():
                self.editor = None
            return ""
        if low[:2] == ["configure", "terminal"] or low == ["configure"]:
            self.editor = NxosEditor(self.dev.running, strict=self.dev.spec.strict)
            return ""
        handler = self._exec_handler(low)
        if handler is not None:
            return handler(words, low)
        if self.editor is None:
            if not self.implicit_config:
                raise CliError(INVALID, 0)
            self.editor = NxosEditor(self.dev.running, strict=self.dev.spec.strict)
        return self._config(line)

    def _exec_handler(self, low: list[str]) -> Any:
        head = low[0]
        if head == "terminal" or low[:2] == ["no", "terminal"]:
            return lambda w, line: ""
        if low[:2] == ["configure", "replace"]:
            return self._configure_replace
        if head == "checkpoint" or low[:2] == ["no", "checkpoint"]:
            return self._checkpoint
        if low[:2] == ["clear", "checkpoint"]:
            return self._clear_checkpoints
        if low[:2] == ["rollback", "running-config"]:
            return self._rollback
        if head in ("copy", "delete", "dir"):
            return {"copy": self._copy, "delete": self._delete, "dir": self._dir}[head]
        return None

    # --- configuration --------------------------------------------------------------------------
    def _config(self, line: str) -> None:
        assert self.editor is not None
        if not self.configured:
            self.dev.commit_gate(self)  # the first change of this context: commit-phase faults
        try:
            self.editor.apply(line)
        except ConfigError as e:
            if e.token is None:
                raise CliError(INCOMPLETE, len(line.split())) from None
            raise CliError(INVALID, e.token) from None
        self.configured = True
        self.dev.config_changed()
        return None

    # --- exec commands ---------------------------------------------------------------------------
    def _checkpoint(self, words: list[str], low: list[str]) -> str:
        dev = self.dev
        if low[0] == "no":
            if len(words) != 3:
                raise CliError(INCOMPLETE if len(words) < 3 else INVALID, min(len(words), 3))
            if words[2] not in dev.checkpoints:
                raise CliError(f"Checkpoint '{words[2]}' does not exist")
            del dev.checkpoints[words[2]]
            return ""
        dev.exclusive("checkpoint")
        if low[1:2] == ["file"]:
            if len(words) != 3:
                raise CliError(INCOMPLETE if len(words) < 3 else INVALID, min(len(words), 3))
            dev.save_checkpoint_file(words[2])
            return "Done\n"
        name, description = None, ""
        rest = words[1:]
        if rest and rest[0].lower() != "description":
            name, rest = rest[0], rest[1:]
        if rest:
            if rest[0].lower() != "description" or len(rest) < 2:
                raise CliError(INVALID, len(words) - len(rest))
            description = " ".join(rest[1:]).strip('"')
        dev.save_checkpoint(name, description)
        return "Done\n"

    def _clear_checkpoints(self, words: list[str], low: list[str]) -> str:
        if low[2:] != ["database"]:
            raise CliError(INVALID, 2)
        self.dev.checkpoints.clear()
        return ""

    def _rollback(self, words: list[str], low: list[str]) -> str:
        if len(words) < 4 or low[2] not in ("checkpoint", "file"):
            raise CliError(INCOMPLETE if len(words) < 4 else INVALID, min(len(words), 2))
        options = set(low[4:])
        if not options <= {"atomic", "best-effort", "stop-at-first-failure", "verbose"}:
            raise CliError(INVALID, 4)
        return self.dev.rollback(low[2], words[3], best_effort="best-effort" in options)

    def _configure_replace(self, words: list[str], low: list[str]) -> str:
        if low[2:] == ["commit"]:
            return self.dev.replace_commit()
        if len(words) < 3:
            raise CliError(INCOMPLETE, 2)
        timeout = None
        i = 3
        while i < len(low):
            if low[i] == "commit-timeout" and i + 1 < len(low) and low[i + 1].isdigit() \
                    and 30 <= int(low[i + 1]) <= 3600:
                timeout = int(low[i + 1])
                i += 2
            elif low[i] in ("verbose", "show-patch", "best-effort"):
                i += 1
            else:
                raise CliError(INVALID, i + (1 if low[i] == "commit-timeout" else 0))
        return self.dev.configure_replace(words[2], timeout)

    def _copy(self, words: list[str], low: list[str]) -> str:
        if len(words) < 3:
            raise CliError(INCOMPLETE, len(words))
        src, dst = low[1], low[2]
        dev = self.dev
        if src == "running-config" and dst == "startup-config":
            dev.exclusive("copy")
            dev.save_startup()
            return ("[########################################] 100%\n"
                    "Copy complete, now saving to disk (please wait)...\nCopy complete.\n")
        if src == "running-config":
            dev.write_file(words[2], dev.running_text())
            return "Copy complete.\n"
        if src == "startup-config":
            dev.write_file(words[2], dev.startup)
            return "Copy complete.\n"
        if dst == "startup-config":
            dev.startup = dev.read_file(words[1]).decode()
            return "Copy complete.\n"
        raise CliError(INVALID, 2)

    def _delete(self, words: list[str], low: list[str]) -> str:
        if len(words) < 2:
            raise CliError(INCOMPLETE, 1)
        if len(words) > 3 or (len(words) == 3 and low[2] != "no-prompt"):
            raise CliError(INVALID, 2)
        self.dev.delete_file(words[1])
        return ""

    def _dir(self, words: list[str], low: list[str]) -> str:
        if len(words) > 2:
            raise CliError(INVALID, 2)
        name = None
        if len(words) == 2:
            name = self.dev.file_name(words[1], allow_root=True)
        try:
            return show.dir_listing(self.dev, name)
        except FileNotFoundError:
            raise CliError(f"No such file or directory: {words[1]}") from None

    # --- show ------------------------------------------------------------------------------------
    def _show(self, words: list[str], low: list[str], structured: bool) -> Any:
        dev = self.dev
        args = low[1:]
        data: dict[str, Any] | None = None
        text: str | None = None
        oper = wiring_of(dev.spec.options)  # operational state (netcfg/lab/nxos/oper.py)
        if oper is not None and (got := nxos_oper.show(dev, oper, args)) is not None:
            data, text = got
        elif args == ["version"]:
            data, text = show.version(dev), show.version_text(dev)
        elif args == ["hostname"]:
            data, text = show.hostname(dev), f"{dev.hostname}\n"
        elif args == ["inventory"]:
            data = show.inventory(dev)
            text = "".join(f'NAME: "{r["name"]}",  DESCR: "{r["desc"]}"\nPID: {r["productid"]}'
                           f'  ,  VID: {r["vendorid"]} ,  SN: {r["serialnum"]}\n\n'
                           for r in data["TABLE_inv"]["ROW_inv"])
        elif args == ["interface", "status"]:
            text = show.interface_status(dev)
        elif args == ["hosts"]:
            text = show.hosts(dev)
        elif args in (["interface"], ["interfaces"]):
            data = show.interfaces(dev)
            if oper is not None:
                nxos_oper.interfaces(dev, oper, data)
            text = "".join(f'{r["interface"]} is {r["state"]}\nadmin state is {r["admin_state"]}\n'
                           f'  MTU {r["eth_mtu"]} bytes, BW {r["eth_bw"]} Kbit\n'
                           for r in data["TABLE_interface"]["ROW_interface"])
        elif args in (["running-config"], ["running-config", "all"]):
            text = dev.running_text()
        elif args == ["startup-config"]:
            text = dev.startup_text()
        elif args[:2] == ["checkpoint", "summary"]:
            text = dev.checkpoint_summary()
        elif args[:1] == ["checkpoint"] and len(args) == 2:
            if words[2] not in dev.checkpoints:
                raise CliError(f"Checkpoint '{words[2]}' does not exist")
            text = dev.checkpoints[words[2]].text
        elif args[:1] == ["file"] and len(args) in (2, 3):
            content = dev.read_file(words[2])
            if args[2:] == ["md5sum"]:
                text = show.md5(content) + "\n"
            elif not args[2:]:
                text = content.decode(errors="replace")
            else:
                raise CliError(INVALID, 3)
        elif args[:2] == ["diff", "rollback-patch"]:
            text = self._diff(words[3:], [w.lower() for w in words[3:]])
        elif args[:2] == ["config-replace", "status"]:
            text = dev.replace_status()
        elif args == ["clock"]:
            text = show.clock(dev)
        else:
            raise CliError(INVALID, _bad_show_token(args) + 1)
        if structured and data is not None:
            return data
        return text

    def _piped(self, words: list[str], low: list[str], filt: list[str]) -> str:
        """`show ... | json`, `| include X`, `| exclude X` (what CLI-scraping clients use)."""
        if filt == ["json"]:
            data = self._show(words, low, structured=True)
            if isinstance(data, str):
                raise CliError(INVALID, len(words) + 1)
            return json.dumps(data, indent=1) + "\n"
        if len(filt) >= 2 and filt[0].lower() in ("include", "exclude", "grep"):
            pattern = " ".join(filt[1:])
            keep = filt[0].lower() != "exclude"
            text = str(self._show(words, low, structured=False))
            return "".join(ln for ln in text.splitlines(keepends=True)
                           if (re.search(pattern, ln) is not None) == keep)
        raise CliError(INVALID, len(words) + 1)

    def _diff(self, words: list[str], low: list[str]) -> str:
        trees: list[Any] = []
        i = 0
        while i < len(low) and len(trees) < 2:
            if low[i] in ("running-config", "startup-config"):
                trees.append(self.dev.source_tree(low[i], None))
                i += 1
            elif low[i] in ("checkpoint", "file") and i + 1 < len(words):
                trees.append(self.dev.source_tree(low[i], words[i + 1]))
                i += 2
            else:
                raise CliError(INCOMPLETE if i >= len(low) else INVALID, i + 3)
        if len(trees) != 2 or i != len(low):
            raise CliError(INCOMPLETE if len(trees) < 2 else INVALID, i + 3)
        patch = rollback_patch(trees[0], trees[1])
        lines = ["Collecting Running-Config", "#Generating Rollback Patch"]
        lines += ["!!", *patch] if patch else ["Rollback Patch is Empty"]
        return "\n".join(lines) + "\n"


_SHOW_FIRST = {"version", "hostname", "inventory", "interface", "interfaces", "running-config",
               "startup-config", "checkpoint", "file", "diff", "config-replace", "clock", "hosts"}


def _bad_show_token(args: list[str]) -> int:
    if not args:
        return 0
    return 0 if args[0] not in _SHOW_FIRST else min(1, len(args) - 1)


_PROMPT_MODES = {
    "if": "if", "bgp": "router", "bgp-af": "router-af", "bgp-nbr": "router-neighbor",
    "bgp-nbr-af": "router-neighbor-af", "bgp-vrf": "router-vrf", "vrf": "vrf",
    "vrf-af": "vrf-af-ipv4", "cmap-qos": "cmap-qos", "cmap-que": "cmap-que",
    "cmap-nq": "cmap-nqos", "pmap-qos": "pmap-qos", "pmap-qos-c": "pmap-c-qos",
    "pmap-que": "pmap-que", "pmap-que-c": "pmap-c-que", "pmap-nq": "pmap-nqos",
    "pmap-nq-c": "pmap-nqos-c", "sys-qos": "sys-qos", "vlan": "vlan", "line": "line",
    "route-map": "route-map", "ospf": "router", "vdc": "vdc",
}
