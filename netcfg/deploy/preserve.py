"""What a full replace keeps of the device's own: one policy for every NOS.

netcfg renders the fabric, not who may log in: users, password hashes, AAA servers and SSH
keys are the device's (often managed by another system) and never pass through the intent. A
replace candidate without them would lock everyone out (EOS, NX-OS) or be refused (Junos
requires `system root-authentication`). Teams also run sections netcfg does not render at all
(a collector's SNMP user, a site's syslog host): `management.preserve` names those.

So before a replace the candidate takes, from the running config, in the terms every NOS's
deploy adapter splits a config into (`DeployAdapter.sections`: `username admin`, `system login
user ops`, `system aaa user admin`, `TACPLUS_SERVER`):

* **kept** sections, named by the NOS's default policy (`DeployAdapter.device_local`: logins
  and AAA) or by the intent (`management.preserve`), where the candidate has no section of
  that name: the intent's own users replace the device's of the same name only. A section
  netcfg itself put there with its last push (the run journal's record) is not the device's:
  when the intent drops it (a login, a TACACS+ server) the push removes it;
* **device-owned** sections (`DeployAdapter.device_owned`, and Junos's root password unless
  the intent says otherwise) in place of the candidate's: facts of the hardware (a SONiC
  switch's MAC and platform) and what the NOS refuses to change in a replace (SONiC's
  BUFFER_POOL). Where the candidate stated one differently the push says so
  (`Change.kept_device`): nothing is swapped silently.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from netcfg.deploy.sections import Sections, matches

if TYPE_CHECKING:
    from netcfg.intent.model import Intent
    from netcfg.vendors.base import DeployAdapter


@dataclass(frozen=True)
class Policy:
    """Globs of section keys or families (netcfg.deploy.sections.matches)."""

    #: the device's sections kept where the candidate has none of the same name
    keep: tuple[str, ...] = ()
    #: sections whose device version replaces the candidate's
    device_wins: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kept:
    """A replace candidate with the device's own sections in it."""

    text: str
    #: the running config's sections (adapter.sections), split once for the removal summary
    running: Sections = field(default_factory=dict)
    #: sections of the device added because the candidate had none of that name
    kept: list[str] = field(default_factory=list)
    #: sections the candidate stated differently, replaced by the device's own
    overridden: list[str] = field(default_factory=list)
    #: the sections netcfg last put on the device (`keep`'s `written`)
    written: frozenset[str] = frozenset()


def keep(adapter: DeployAdapter, running: str, candidate: str, policy: Policy,
         written: str = "") -> Kept:
    """`candidate` with what `policy` keeps of `running` (module docstring). `written`: the
    text of the config netcfg last left on the device (`read_written`; "" without a record):
    its sections are not the device's own, so one the candidate no longer has goes (a login
    the intent dropped)."""
    theirs, ours = adapter.sections(running), adapter.sections(candidate)
    netcfgs = _written_keys(adapter, written, candidate, ours)
    wins = [key for key, (family, _) in theirs.items()
            if matches(key, family, policy.device_wins)]
    overridden = [key for key in wins if key in ours and ours[key][1] != theirs[key][1]]
    kept = [key for key, (family, _) in theirs.items() if key not in ours and key not in wins
            and key not in netcfgs and matches(key, family, policy.keep)]
    if overridden:
        candidate = adapter.remove_sections(candidate, overridden)
    added = [key for key in wins if key not in ours] + overridden + kept
    if added:
        candidate = adapter.add_sections(running, candidate, added)
    return Kept(candidate, theirs, sorted(kept), sorted(overridden), frozenset(netcfgs))


def _written_keys(adapter: DeployAdapter, text: str, candidate: str,
                  ours: Sections) -> Collection[str]:
    """The section keys of the config netcfg last left on a device: the candidate's own when
    it is the same file (the intent did not change), none without a readable record."""
    if not text:
        return ()
    if text == candidate:
        return ours.keys()
    try:
        return adapter.sections(text).keys()
    except ValueError:
        return ()  # an unreadable record: the device's sections are its own


def read_written(path: Path | None) -> str:
    """The text of the config netcfg last left on a device (runs.last_written); "" where it
    has not pushed there (or not within the runs it looks back on) or the record cannot be
    read: then the device's sections are its own."""
    if path is None:
        return ""
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def device_wins(intent: Intent) -> tuple[str, ...]:
    """The sections the intent leaves as the device has them, beside each NOS's own
    (`DeployAdapter.device_owned`): root's password, unless the intent says its hash replaces
    the device's (`management.root_authentication.on_push: replace`)."""
    root = intent.management.root_authentication
    return () if root is not None and root.on_push == "replace" else (
        "system root-authentication",)
