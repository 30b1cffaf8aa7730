"""The platform catalog: switch models, their ASICs and NICs, as data with a source per number.

`catalog.yaml` beside this module is the single place where hardware facts live (port cages,
breakouts and interface naming, buffer and cell size, lossless priority limits). Code asks the
catalog; nothing hard-codes a switch.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, PrivateAttr, model_validator

from netcfg.intent.base import IntentModel, Name, Text
from netcfg.intent.units import Length, Size, Speed
from netcfg.intent.yamlsrc import load_yaml
from netcfg.nos import names


def _registered_nos(value: str) -> str:
    """A platform's NOS must have a vendor package (netcfg/vendors/, or a plugin's), whose
    facts are registered in the `netcfg.nos` entry point group (netcfg/nos)."""
    if value not in names():
        raise ValueError(f"no vendor package for NOS {value!r}; known: {', '.join(names())}")
    return value


Nos = Annotated[str, AfterValidator(_registered_nos)]

CATALOG_PATH = Path(__file__).with_name("catalog.yaml")


class Sourced(IntentModel):
    """Every catalog entry says where its numbers come from: field name -> citation."""

    sources: dict[str, Text] = Field(min_length=1)

    @model_validator(mode="after")
    def _every_number_sourced(self) -> Sourced:
        numeric = [
            name for name, value in self
            if isinstance(value, (int, float)) and not isinstance(value, bool)
        ]
        missing = [n for n in numeric if n not in self.sources]
        if missing:
            raise ValueError(f"no source given for {', '.join(missing)}")
        return self


class SpectrumConstants(Sourced):
    """SONiC's ASIC_TABLE values for one Spectrum generation (KiB, as SONiC stores them)."""

    pipeline_latency_kib: float = Field(gt=0)
    mac_phy_delay_kib: float = Field(ge=0)
    peer_response_time_kib: float = Field(gt=0)


class Asic(Sourced):
    vendor: Text
    family: Literal["spectrum", "tomahawk", "cloudscale", "silicon_one", "trio", "express"]
    generation: int = Field(ge=1)
    buffer: Size = Field(description="total on-chip packet buffer")
    cell: int = Field(ge=1, description="buffer cell size in bytes")
    lossless_priorities_max: int = Field(ge=1, le=8)
    headroom_model: Literal["sonic_spectrum", "ieee_8021qbb"]
    spectrum: SpectrumConstants | None = Field(
        None, description="for headroom_model sonic_spectrum"
    )

    @model_validator(mode="after")
    def _model_has_constants(self) -> Asic:
        if self.headroom_model == "sonic_spectrum" and self.spectrum is None:
            raise ValueError("headroom_model sonic_spectrum needs the 'spectrum' constants")
        return self


class PortMode(IntentModel):
    """One way to use a cage: `per_cage` ports of `speed`, named by a template.

    Name templates may use {cage} (1-based), {cage0}, {sub} (1-based port in the cage),
    {sub0}, {lane0} (first lane, 0-based, across the switch) and {lane1} (first lane in the
    cage, 1-based). E.g. EOS `Ethernet{cage}/{lane1}`, SONiC `Ethernet{lane0}`.
    """

    speed: Speed
    per_cage: int = Field(ge=1, le=8)
    name: str = Field(min_length=1)


class Platform(Sourced):
    model: Text
    vendor: Text
    nos: Nos
    release: Text = Field(description="the NOS release the platform runs unless the intent pins "
                          "another (one of releases.<nos>.known)")
    asic: Name
    cages: int = Field(ge=1, le=1024, description="front-panel cages (OSFP/QSFP-DD)")
    lanes_per_cage: int = Field(ge=1, le=16)
    modes: list[PortMode] = Field(min_length=1)
    _ports: dict[tuple[str, int], tuple[int, PortMode]] | None = PrivateAttr(default=None)

    def mode_for(self, speed: int) -> PortMode | None:
        for mode in self.modes:
            if mode.speed == speed:
                return mode
        return None

    def lanes(self, speed: int) -> int:
        """SerDes lanes behind a port at `speed`: the cage's lanes split among its mode's
        ports (a whole cage where no mode runs at that speed)."""
        mode = self.mode_for(speed)
        return self.lanes_per_cage // (mode.per_cage if mode is not None else 1)

    def speeds(self) -> list[int]:
        return sorted({m.speed for m in self.modes})

    def port_name(self, mode: PortMode, cage0: int, sub0: int) -> str:
        """The name of port `sub0` (0-based) of cage `cage0` (0-based) in `mode`."""
        lane_in_cage = sub0 * (self.lanes_per_cage // mode.per_cage)
        return mode.name.format(cage=cage0 + 1, cage0=cage0, sub=sub0 + 1, sub0=sub0,
                                lane0=cage0 * self.lanes_per_cage + lane_in_cage,
                                lane1=lane_in_cage + 1)

    def cage_of(self, port: str, speed: int) -> tuple[int, PortMode] | None:
        """(1-based cage, mode) of a front-panel port running at `speed`, or None when that
        speed's mode names no such port (two modes may share a name: EOS `Ethernet1/1`)."""
        if self._ports is None:  # built once: every port name of every mode
            self._ports = {(self.port_name(mode, cage0, sub0), mode.speed): (cage0 + 1, mode)
                           for mode in self.modes for cage0 in range(self.cages)
                           for sub0 in range(mode.per_cage)}
        return self._ports.get((port, speed))

    def native_port(self, cage: int) -> str | None:
        """The name of a whole, unsplit cage (1-based), where the platform has that mode."""
        whole = next((m for m in self.modes if m.per_cage == 1), None)
        return None if whole is None else self.port_name(whole, cage - 1, 0)




class Nic(Sourced):
    model: Text
    vendor: Text
    ports: int = Field(ge=1, le=4)
    speeds: list[Speed] = Field(min_length=1)
    dcqcn: Literal["mlx5", "none"]
    port_name: str = Field(description="host interface name template, {port0} 0-based")


class MediumReach(IntentModel):
    """How far one cable medium carries a port's signal, by the rate of one SerDes lane (a
    source per rate): a standard's reach or the longest part a vendor sells."""

    reach: dict[Speed, Length] = Field(min_length=1, description="lane rate -> metres")
    sources: dict[Speed, Text]

    @model_validator(mode="after")
    def _sourced(self) -> MediumReach:
        missing = [r for r in self.reach if r not in self.sources]
        if missing:
            raise ValueError(f"no source given for the reach at {missing} Mb/s a lane")
        return self


class PhysicsConstants(IntentModel):
    """Per-speed constants of the generic IEEE 802.1Qbb headroom model (sources per table)."""

    pfc_frame: int = Field(gt=0, description="PFC frame on the wire, bytes")
    frame_overhead: int = Field(ge=0, description="preamble/SFD + IPG per frame, bytes")
    propagation_ns_per_m: dict[str, float] = Field(description="by medium, plus 'default'")
    pause_quanta: dict[Speed, int] = Field(description="peer response in 512-bit quanta")
    interface_delay_bits: dict[Speed, int] = Field(description="PHY+MAC delay, both ends")
    sources: dict[str, Text]

    @model_validator(mode="after")
    def _sourced(self) -> PhysicsConstants:
        missing = [n for n in type(self).model_fields if n != "sources" and n not in self.sources]
        if missing:
            raise ValueError(f"no source given for {', '.join(missing)}")
        if "default" not in self.propagation_ns_per_m:
            raise ValueError("propagation_ns_per_m needs a 'default' entry")
        return self


class NosReleases(IntentModel):
    """The releases of one NOS netcfg renders for: where spellings differ between them, the
    vendor package keys them on the release (one table per NOS)."""

    known: list[Text] = Field(min_length=1)
    source: Text


class Catalog(IntentModel):
    asics: dict[Name, Asic]
    releases: dict[Name, NosReleases]
    platforms: dict[Name, Platform]
    nics: dict[Name, Nic]
    physics: PhysicsConstants
    #: medium (a link class's `medium`) -> its reach by lane rate; media not listed unchecked
    media: dict[Name, MediumReach] = Field(default_factory=dict)

    def known_releases(self, nos: str) -> list[str]:
        entry = self.releases.get(nos)
        return list(entry.known) if entry is not None else []

    def check_release(self, nos: str, release: str) -> str | None:
        """None, or why `release` is not one netcfg renders `nos` for (naming the known ones)."""
        known = self.known_releases(nos)
        if release in known:
            return None
        return (f"unknown {nos} release {release!r}; known: {', '.join(known)}" if known
                else f"no release of {nos} is known to the catalog")

    @model_validator(mode="after")
    def _asics_exist(self) -> Catalog:
        for name, p in self.platforms.items():
            if p.asic not in self.asics:
                raise ValueError(f"platform {name}: unknown asic {p.asic}")
            reason = self.check_release(p.nos, p.release)
            if reason:
                raise ValueError(f"platform {name}: {reason}")
        return self


@lru_cache(maxsize=4)
def load_catalog(path: Path = CATALOG_PATH) -> Catalog:
    """The catalog, validated (a broken catalog is a bug in netcfg, so this may raise)."""
    data, _ = load_yaml(path)
    return Catalog.model_validate(data)
