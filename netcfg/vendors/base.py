"""The one contract every NOS package implements (NAPALM's idea: one interface, one package
per OS). Code outside `netcfg/vendors/` asks a `Vendor` and never branches on a NOS name, so
adding a NOS is one package plus its templates (docs/vendors.md).

A vendor answers four questions:
  - what can the NOS express (`capabilities`, checked at validate time);
  - what else is wrong with a plan on this NOS (`check`);
  - what does the config say (`build` -> typed config -> templates, `read` -> facts,
    `expected` -> facts);
  - how is a config committed safely on it (`deploy`, a `DeployAdapter`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from netcfg.deploy.preserve import Policy, keep
from netcfg.nos import WATCHDOG_FIELDS, Capabilities, NosFacts, PoolLayout, SeedSupport
from netcfg.render.routing_facts import RoutingFacts, wanted
from netcfg.vendors import raw

if TYPE_CHECKING:
    from napalm.base import NetworkDriver

    from netcfg.deploy.targets import Target
    from netcfg.findings import Finding
    from netcfg.render.facts import QosFacts
    from netcfg.render.plan import DevicePlan, Interface
    from netcfg.topology.fabric import Device, Fabric
    from netcfg.verify.pfc import PfcState

#: what a NOS is lives in netcfg/nos (the layers below rendering read it there); these names
#: stay importable from here for the vendor packages
__all__ = ["WATCHDOG_FIELDS", "Capabilities", "DeployAdapter", "ModuleVendor", "NosFacts",
           "PendingElsewhere", "PoolLayout", "SeedSupport", "Vendor"]


class PendingElsewhere(Exception):
    """The device has a change pending from elsewhere that must not be overridden."""


class DeployAdapter:
    """How netcfg reaches and commits on one NOS through its NAPALM driver. The defaults are
    NAPALM's own contract (`commit_config(revert_in=...)`, `confirm_commit`, `rollback`,
    `has_pending_commit`); a NOS overrides what its driver lacks."""

    #: NAPALM driver name (`napalm.get_network_driver`)
    napalm_driver: ClassVar[str]
    #: the NAPALM driver plain NAPALM code (the Nornir inventory's `platform`) should use: one
    #: that keeps the device's own sections in a replace (netcfg/deploy/drivers/keeping.py);
    #: "" where napalm_driver already does
    plain_driver: ClassVar[str] = ""
    #: the management protocol's default port, and its endpoint name in a devices file
    default_port: ClassVar[int]
    protocol: ClassVar[Literal["https", "ssh"]]
    #: statements of this NOS whose value is a secret, as `(?P<lead>statement )(?P<secret>
    #: value)`: a BGP session key in whatever form the device shows it. `mask` blanks them in
    #: the device's own diffs, which show the running config's values (not known here)
    secret_values: ClassVar[tuple[re.Pattern[str], ...]] = ()
    #: the preserve policy's default (netcfg/deploy/preserve.py): globs of sections (keys or
    #: families of `sections`) a replace keeps of the device's own where the file has none
    #: of that name: who may log in and how
    device_local: ClassVar[tuple[str, ...]] = ()
    #: sections whose device version replaces the file's: the hardware's own facts and what
    #: the NOS refuses to change in a replace
    device_owned: ClassVar[tuple[str, ...]] = ()

    def mask(self, text: str) -> str:
        """`text` with every value of `secret_values` replaced by ********."""
        for pattern in self.secret_values:
            text = pattern.sub(r"\g<lead>********", text)
        return text

    def driver_options(self, target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
        """NAPALM `optional_args` beyond the port (TLS, host keys, timeouts)."""
        return {}

    def prepare(self, driver: NetworkDriver, target: Target) -> None:
        """Adjust a constructed driver before `open()`."""

    def clear_stale(self, driver: NetworkDriver, target: Target) -> list[str]:
        """Clear what a crashed run left on the device; returns what was cleared."""
        return []

    def discard_leftovers(self, driver: NetworkDriver, target: Target) -> list[str]:
        """After a failed commit, from a fresh connection: discard what netcfg's own failed
        attempt left on the device (its candidate, a pending revision); returns what was
        discarded. By default what `clear_stale` clears."""
        return self.clear_stale(driver, target)

    def revert_seconds(self, seconds: int) -> int:
        """The revert timer the NOS really runs for a request of `seconds`."""
        return seconds

    def commit(self, driver: NetworkDriver, seconds: int, message: str) -> None:
        """Commit the loaded candidate so that the device reverts by itself after `seconds`."""
        driver.commit_config(revert_in=seconds)

    def confirm(self, driver: NetworkDriver) -> None:
        """Make a pending commit permanent (and the startup config with it)."""
        driver.confirm_commit()

    def revert(self, driver: NetworkDriver) -> None:
        """Undo, now, a commit that still waits for its confirmation."""
        driver.rollback()

    def pending(self, driver: NetworkDriver) -> bool:
        """Whether the device holds a commit waiting for confirmation (from any session)."""
        return bool(driver.has_pending_commit())

    def revert_pending(self, driver: NetworkDriver) -> None:
        """Revert a pending commit from a connection that did not make it."""
        self.revert(driver)

    def save(self, driver: NetworkDriver) -> None:
        """Make the startup config equal the running one (no-op where a commit persists)."""

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """The config's sections: key -> (family, content), as netcfg.deploy.sections
        describes them; empty where the NOS has no splitter (then nothing is refused)."""
        return {}

    def disruptive(self, running: dict[str, tuple[str, str]],
                   candidate: dict[str, tuple[str, str]]) -> list[str]:
        """What replacing `running` by `candidate` (both as `sections` splits them) does that
        takes links down by itself, beyond the lines' own meaning, one phrase each: a push
        refuses it unless the operator allows it (`--allow-disruptive`). The gate's one
        policy (docs/deploy.md): only a switch with a port in service (`in_service`) has
        traffic for a change to stop; on one without, as fresh from the factory on most
        NOSes, nothing is named. Otherwise the NOS's own entries (`disrupts`)."""
        return self.disrupts(running, candidate) if self.in_service(running) else []

    def in_service(self, running: dict[str, tuple[str, str]]) -> bool:
        """Whether the running sections leave a front-panel port up and able to carry
        traffic, by the NOS's own defaults (docs/render-<nos>.md). True by default: a NOS
        that cannot tell is gated."""
        return True

    def disrupts(self, running: dict[str, tuple[str, str]],
                 candidate: dict[str, tuple[str, str]]) -> list[str]:
        """The NOS's disruptive changes, each with its vendor source, asked only of a switch
        in service (`disruptive`). None by default."""
        return []

    def add_sections(self, running: str, candidate: str, keys: list[str]) -> str:
        """`candidate` with these sections of `running` (keys of `sections`) added as the
        device has them: how a replace keeps the device's own (netcfg/deploy/preserve.py)."""
        raise NotImplementedError(f"{type(self).__name__} cannot keep device sections")

    def remove_sections(self, candidate: str, keys: list[str]) -> str:
        """`candidate` without these sections (keys of `sections`): where the device's own
        version replaces the file's (`device_owned`, the intent's device_wins). Only a NOS
        with such sections implements it (Junos, SONiC)."""
        raise NotImplementedError(f"{type(self).__name__} cannot drop sections of a file")

    def policy(self, preserve: Sequence[str] = (), device_wins: Sequence[str] = ()) -> Policy:
        """The preserve policy of a replace: this NOS's defaults and the intent's additions
        (`management.preserve`; Junos's root password unless the intent replaces it)."""
        return Policy(self.device_local + tuple(preserve), self.device_owned + tuple(device_wins))

    def keep_device_local(self, running: str, candidate: str) -> str:
        """`candidate` with what the NOS's default policy keeps of `running` (logins, AAA, the
        switch's own facts): a plain NAPALM replace and a rollback use this."""
        return keep(self, running, candidate, self.policy()).text


class Vendor(ABC):
    """One NOS: what it does (rendering, reading, deployment) with what it is (`facts`)."""

    #: what the NOS is (netcfg/nos): its name, capabilities, buffer carving and raw-config
    #: grammar, registered in the `netcfg.nos` entry point group under the same name
    facts: ClassVar[NosFacts]
    #: device template under templates/ (includes the section templates)
    template: ClassVar[str]
    #: a plugin's own template folder, searched after netcfg's templates/ (None: netcfg's)
    template_dir: ClassVar[Path | None] = None
    #: file extension of a rendered config
    extension: ClassVar[str]
    deploy: ClassVar[DeployAdapter]
    #: Jinja filters the NOS's templates use for its own syntax (quoting), named `<nos>_...`
    filters: ClassVar[Mapping[str, Callable[..., str]]] = {}

    @property
    def name(self) -> str:
        """The name used in the platform catalog (`nos:`) and both entry points."""
        return self.facts.name

    @property
    def capabilities(self) -> Capabilities:
        return self.facts.capabilities

    @property
    def raw_form(self) -> Literal["lines", "tree"]:
        """How `raw_config` reaches this NOS's file (NosFacts.raw_form)."""
        return self.facts.raw_form

    def banner_refusal(self, text: str) -> str | None:
        """Why this NOS's file cannot carry banner `text` as written (NosFacts)."""
        return self.facts.banner_refusal(text)

    def raw_refusal(self, lines: str | None, merge: Mapping[str, Any] | None) -> str | None:
        """Why a `raw_config` entry cannot go into this NOS's file (NosFacts)."""
        return self.facts.raw_refusal(lines, merge)

    def raw_settings(self, text: str) -> list[raw.Setting]:
        """A line config's settings, to compare raw lines with rendered ones."""
        return raw.line_leaves(text)

    def raw_document(self, text: str) -> dict[str, Any]:
        """A structured NOS's rendered text as the mapping `merge` entries are laid over."""
        raise NotImplementedError(f"{self.name} takes raw lines, not a mapping")

    def raw_text(self, document: dict[str, Any]) -> str:
        """The mapping of `raw_document` as this NOS's file again."""
        raise NotImplementedError(f"{self.name} takes raw lines, not a mapping")

    def add_raw(self, text: str, pieces: Sequence[raw.RawPiece]) -> str:
        """The rendered `text` with the switch's `raw_config` entries in it."""
        if self.raw_form == "lines":
            return raw.insert_lines(text, pieces)
        document = self.raw_document(text)
        for piece in pieces:
            document = raw.merged(document, piece.merge or {})
        return self.raw_text(document)

    def raw_overlaps(self, text: str, piece: raw.RawPiece) -> list[str]:
        """Where `piece` changes a setting the rendered `text` (without raw entries) states,
        one phrase each."""
        if self.raw_form == "lines":
            pairs = raw.overlaps(self.raw_settings(text), self.raw_settings(piece.lines or ""))
            return [f"'{raw.describe(mine)}' where netcfg renders '{raw.describe(ours)}'"
                    for mine, ours in pairs]
        return [f"{'.'.join(path)}: {new!r} where netcfg renders {old!r}"
                for path, old, new in raw.tree_overlaps(self.raw_document(text),
                                                        piece.merge or {})]

    def check(self, fabric: Fabric, devices: list[Device], physics: Any) -> list[Finding]:
        """NOS-specific findings beyond the capability table (none by default)."""
        return []

    def read_pfc(self, driver: NetworkDriver) -> PfcState | None:
        """The switch's PFC watchdog, PFC frame and queue drop state, read with the NOS's own
        commands through the NAPALM driver's `cli` (NAPALM has no getter for them), for
        `netcfg verify`; None where netcfg reads none on this NOS (`pfc_unverifiable` says
        why). Each reader's parser is tested on a published capture (docs/verify.md)."""
        return None

    #: why `netcfg verify` reads no PFC or queue state on this NOS (read_pfc gives None)
    pfc_unverifiable: str = "netcfg reads none there"
    #: (rules, why) that a reader whose PfcState names none leaves unverified on this NOS
    pfc_parts_unverifiable: tuple[tuple[str, str], ...] = ()
    #: `netcfg verify --export anta` writes an ANTA catalog for switches of this NOS (ANTA
    #: speaks EOS's eAPI only)
    anta: bool = False

    def read_buffers(self, driver: NetworkDriver) -> dict[str, dict[str, str]] | None:
        """The buffer profiles as the switch programmed them, by name (VFY024 compares each
        lossless port's with netcfg's derived headroom); None where netcfg reads none."""
        return None

    def buffer_profile_name(self, interface: Interface, plan: DevicePlan | None = None) -> str:
        """The name of a lossless port's PG profile among `read_buffers`' (the NOS names it,
        from the port and, where it depends on the box, its plan); only asked where
        read_buffers reads some."""
        raise NotImplementedError(f"{self.name} reads no buffer profiles")

    def prefix_limit(self, fabric_prefixes: int) -> tuple[int, str] | None:
        """The prefixes one BGP session may carry to a switch of this NOS, as its file leaves
        it in a fabric that originates at most `fabric_prefixes` (a NOS may size a rendered
        limit from it), and where that comes from; None: no limit. Capabilities.prefix_limit
        by default."""
        caps = self.capabilities
        if caps.prefix_limit is None:
            return None
        return caps.prefix_limit, caps.prefix_limit_source

    def reported_mtu(self, l2_mtu: int) -> int | None:
        """The MTU this NOS's NAPALM driver reports (get_interfaces) for a port rendered for
        L2 frames of `l2_mtu` bytes: what the NOS's own `mtu` statement holds
        (docs/render-<nos>.md). None where the driver's figure is not mapped, and
        `netcfg verify` then leaves the MTU unchecked."""
        return None

    def explain_headroom(self, size: int, xoff: int, frame: int) -> list[tuple[str, int, str]]:
        """How the config states one lossless PG's headroom (reserve `size`, `xoff` bytes
        arriving after PAUSE, largest frame `frame`) where the NOS's fields mean something
        else: (field, value, formula) rows for `netcfg explain`; none where they are netcfg's."""
        return []

    @abstractmethod
    def build(self, plan: DevicePlan) -> Any:
        """The plan as this NOS's configuration: a typed model of values in the NOS's own units
        and spellings, no CLI text (the device template and its sections print it as `c`)."""

    @abstractmethod
    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        """The QoS facts a rendered or running config states. `plan` supplies what the text
        does not (Junos writes ECN fill levels as percents of a buffer it does not state)."""

    @abstractmethod
    def expected(self, plan: DevicePlan) -> QosFacts:
        """What `read` must return for the plan's own rendering."""

    @abstractmethod
    def read_routing(self, text: str) -> RoutingFacts:
        """The BGP facts a rendered or running config states, by this NOS's own rules."""

    def expected_routing(self, plan: DevicePlan) -> RoutingFacts:
        """What `read_routing` must return for the plan's own rendering: the plan's routing,
        without a path count where the NOS states none (CAP010), without BFD where it renders
        none (CAP011), and with only the server blocks of several subnets where the NOS
        announces nothing else (CAP009)."""
        facts = wanted(plan, "bgp.maximum_paths" not in self.capabilities.unrendered,
                       self.capabilities.bfd)
        if self.capabilities.server_subnets == "blocks":
            facts = replace(facts, originated=(plan.loopback, *plan.bgp.merged_blocks()))
        return facts


class ModuleVendor(Vendor):
    """A vendor whose `build`, `read` and `expected` are the functions of one module of its
    package (`render`): the NOS's unit conversions and reader in one place."""

    render: ClassVar[ModuleType]
    #: the module whose `read(text)` gives the config's RoutingFacts
    routing: ClassVar[ModuleType]

    def read_routing(self, text: str) -> RoutingFacts:
        return self.routing.read(text)

    def build(self, plan: DevicePlan) -> Any:
        return self.render.build(plan)

    def read(self, text: str, plan: DevicePlan) -> QosFacts:
        return self.render.read(text)

    def expected(self, plan: DevicePlan) -> QosFacts:
        return self.render.expected(plan)
