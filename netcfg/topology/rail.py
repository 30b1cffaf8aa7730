"""Rail-optimized generator: SUs x servers x rails -> leaves, spines, optional pods and core.

Wiring (per plane; planes never interconnect):
- NIC r of every server in scalable unit u connects to rail leaf (u, r): one down port each.
- 2 tiers: every leaf connects to every spine of its plane, leaf_uplinks / spines links each.
- 3 tiers: SUs are grouped into pods with their own spines; spine j of every pod connects to
  core group j (cores / spines cores), spine_uplinks / (cores / spines) links to each.
Ports: downlinks take the first cages, uplinks the next ones (see CageAllocator).
"""

from __future__ import annotations

from netcfg.intent.base import is_name, suggest
from netcfg.intent.model import RailOptimized
from netcfg.intent.units import format_speed
from netcfg.intent.yamlsrc import PathKey
from netcfg.topology.build import FabricBuilder
from netcfg.topology.fabric import Device

TOPO: PathKey = ("topology",)


def _default_names(t: RailOptimized) -> dict[str, str]:
    """Defaults grow a {plane} or {pod} part only when the fabric has more than one."""
    plane = "-p{plane}" if t.planes > 1 else ""
    spine_pod = "-pod{pod}-" if t.tiers == 3 else ""
    return {"host": "gpu-su{su}-n{node}", "leaf": "leaf-su{su}-r{rail}" + plane,
            "spine": "spine" + spine_pod + "{index}" + plane, "core": "core{index}" + plane}


_PLACEHOLDERS = {"plane", "pod", "su", "rail", "node", "index"}


class RailBuilder(FabricBuilder):
    def build(self) -> None:
        t = self.intent.topology
        assert isinstance(t, RailOptimized)
        self.t = t
        self.names = self._naming()
        if not self._check_shape():
            return
        self.fail_if_errors()
        leaves = self._hosts_and_leaves()
        self.fail_if_errors()
        spines = self._spines(leaves)
        self.fail_if_errors()
        if t.tiers == 3:
            self._cores(spines)

    # ------------------------------------------------------------------ names
    def _naming(self) -> dict[str, str]:
        defaults = _default_names(self.t)
        names = {}
        for role in ("host", "leaf", "spine", "core"):
            path = ("topology", "naming", role)
            tpl = getattr(self.t.naming, role) if self.loaded.is_set(path) else defaults[role]
            try:
                sample = tpl.format(**{k: 1 for k in _PLACEHOLDERS})
            except Exception as exc:  # noqa: BLE001 - any format error is the template's fault
                self.error("SCH003", f"bad name template {tpl!r} ({exc}); placeholders: "
                           + ", ".join("{" + p + "}" for p in sorted(_PLACEHOLDERS)), path)
            else:  # a device name is a Name: one printable word, as an explicit device's key
                if not is_name(sample):
                    self.error("SCH003", f"name template {tpl!r} makes {sample!r}, not a valid "
                               "name: use 1-63 letters, digits, '-', '_' or '.', starting "
                               "with a letter or digit", path)
            names[role] = tpl
        return names

    def _name(self, role: str, **values: int) -> str:
        values = {k: 1 for k in _PLACEHOLDERS} | values
        return self.names[role].format(**values)

    # ------------------------------------------------------------------ shape checks
    def _check_shape(self) -> bool:
        t = self.t
        ok = True
        if t.tiers == 3:
            for key in ("sus_per_pod", "cores", "spine_core"):
                if getattr(t, key) is None:
                    self.error("SCH002", f"a 3-tier fabric needs topology.{key}", TOPO + (key,))
                    ok = False
            if ok and t.scalable_units % t.sus_per_pod:  # type: ignore[operator]
                self.error("TOP004", f"scalable_units ({t.scalable_units}) is not a multiple of "
                           f"sus_per_pod ({t.sus_per_pod})", TOPO + ("sus_per_pod",))
                ok = False
        else:
            for key in ("sus_per_pod", "cores", "spine_core", "spine_uplinks"):
                if getattr(t, key) is not None:
                    self.error("TOP004", f"topology.{key} applies only to tiers: 3",
                               TOPO + (key,), key=True)
                    ok = False
        up = self.leaf_uplinks
        if up % t.spines:
            self.error("TOP004", f"leaf uplinks ({up}) must divide evenly over {t.spines} spines "
                       f"(each leaf connects to every spine)", TOPO + ("spines",))
            ok = False
        nic = self.catalog.nics.get(t.node.nic)
        if nic is None:
            self.check_nic(t.node.nic, TOPO + ("node", "nic"))
            ok = False
        elif t.host_leaf.speed not in nic.speeds:
            self.error("TOP002", f"NIC {t.node.nic} does not run at "
                       f"{format_speed(t.host_leaf.speed)} (speeds: "
                       f"{', '.join(format_speed(s) for s in nic.speeds)})",
                       TOPO + ("host_leaf", "speed"))
            ok = False
        elif nic.ports < t.planes:
            self.error("TOP004", f"{t.planes} planes need {t.planes} ports per NIC; "
                       f"{t.node.nic} has {nic.ports}", TOPO + ("planes",))
            ok = False
        return ok

    def check_nic(self, nic: str, path: PathKey) -> None:
        self.error("REF002", f"unknown NIC '{nic}'{suggest(nic, tuple(self.catalog.nics))}; "
                   f"known: {', '.join(sorted(self.catalog.nics))}", path)

    @property
    def leaf_uplinks(self) -> int:
        return self.t.leaf_uplinks if self.t.leaf_uplinks is not None else self.t.nodes_per_su

    @property
    def pods(self) -> int:
        return self.t.scalable_units // (self.t.sus_per_pod or self.t.scalable_units)

    def _switch(self, role: str, tier: int, **where: int) -> Device | None:
        name = self._name(role, **where)
        if name in self.fabric.devices:
            self.error("TOP006", f"naming.{role} gives the name '{name}' twice; add a "
                       f"placeholder that tells them apart", ("topology", "naming", role))
            return None
        platform, ppath = self.platform_name(role, name, None, None)
        if not self.check_platform(platform, ppath, role, name):
            return None
        index = where.pop("index", None)
        del index
        return self.add_device(name, role, tier, platform, ppath, **where)

    # ------------------------------------------------------------------ tiers
    def _hosts_and_leaves(self) -> dict[tuple[int, int], list[Device]]:
        """Create servers and rail leaves, cable NICs to leaves. Returns leaves by (plane, pod)."""
        t = self.t
        hl = t.host_leaf
        nic = self.catalog.nics[t.node.nic]
        leaves: dict[tuple[int, int], list[Device]] = {}
        per_pod = t.sus_per_pod or t.scalable_units
        host_port_names = [nic.port_name.format(port0=i) for i in range(t.node.nics * t.planes)]
        for su in range(1, t.scalable_units + 1):
            pod = (su - 1) // per_pod + 1
            su_leaves: dict[tuple[int, int], Device] = {}
            for plane in range(1, t.planes + 1):
                for rail in range(1, t.node.nics + 1):
                    leaf = self._switch("leaf", 1, plane=plane, pod=pod, su=su, rail=rail,
                                        index=rail)
                    if leaf is None:
                        return leaves
                    groups = [(t.nodes_per_su, hl.speed, TOPO + ("host_leaf", "speed")),
                              (self.leaf_uplinks, t.leaf_spine.speed,
                               TOPO + ("leaf_spine", "speed"))]
                    if not self.need_cages(leaf, groups, TOPO + ("nodes_per_su",)):
                        return leaves
                    su_leaves[(plane, rail)] = leaf
                    leaves.setdefault((plane, pod), []).append(leaf)
            downs = {k: self.switch_ports(leaf, t.nodes_per_su, hl.speed, hl.cable)
                     for k, leaf in su_leaves.items()}
            source = TOPO + ("host_leaf",)
            # each leaf's NIC port name, worked out once per scalable unit, not per server
            nic_ports = [(down, host_port_names[(rail - 1) * t.planes + plane - 1])
                         for (plane, rail), down in downs.items()]
            for node in range(1, t.nodes_per_su + 1):
                host = self._host(su, node, pod)
                if host is None:
                    return leaves
                for down, port_name in nic_ports:
                    port = self.named_port(host, port_name, hl.speed, hl.cable)
                    self.connect(down[node - 1], port, source=source)
        return leaves

    def _host(self, su: int, node: int, pod: int) -> Device | None:
        name = self._name("host", su=su, node=node, pod=pod, index=node)
        if name in self.fabric.devices:
            self.error("TOP006", f"naming.host gives the name '{name}' twice",
                       ("topology", "naming", "host"))
            return None
        return self.add_device(name, "host", 0, self.t.node.nic, TOPO + ("node", "nic"),
                               su=su, node=node, pod=pod)

    def _spines(
        self, leaves: dict[tuple[int, int], list[Device]]
    ) -> dict[tuple[int, int], list[Device]]:
        t = self.t
        ls = t.leaf_spine
        per_spine = self.leaf_uplinks // t.spines
        spines: dict[tuple[int, int], list[Device]] = {}
        for (plane, pod), pod_leaves in sorted(leaves.items()):
            down = len(pod_leaves) * per_spine
            groups = [(down, ls.speed, TOPO + ("leaf_spine", "speed"))]
            if t.tiers == 3:
                groups.append((self.spine_uplinks(down), t.spine_core.speed,  # type: ignore[union-attr]
                               TOPO + ("spine_core", "speed")))
            row = []
            for j in range(1, t.spines + 1):
                spine = self._switch("spine", 2, plane=plane, pod=pod, index=j)
                if spine is None or not self.need_cages(spine, groups, TOPO + ("spines",)):
                    return spines
                row.append(spine)
            for spine in row:
                self.switch_ports(spine, down, ls.speed, ls.cable)
            source = TOPO + ("leaf_spine",)
            for leaf_no, leaf in enumerate(pod_leaves):
                ups = self.switch_ports(leaf, self.leaf_uplinks, ls.speed, ls.cable)
                for j, spine in enumerate(row):
                    for k in range(per_spine):
                        self.connect(ups[j * per_spine + k], spine.ports[leaf_no * per_spine + k],
                                     source=source)
            spines[(plane, pod)] = row
        return spines

    def spine_uplinks(self, down: int) -> int:
        return self.t.spine_uplinks if self.t.spine_uplinks is not None else down

    def _cores(self, spines: dict[tuple[int, int], list[Device]]) -> None:
        t = self.t
        sc = t.spine_core
        assert sc is not None and t.cores is not None
        if t.cores % t.spines:
            self.error("TOP004", f"cores ({t.cores}) must be a multiple of spines per pod "
                       f"({t.spines}): spine j of every pod connects to core group j",
                       TOPO + ("cores",))
            self.fail_if_errors()
        per_group = t.cores // t.spines
        for plane in range(1, t.planes + 1):
            pods = [
                spines[(plane, pod)] for pod in range(1, self.pods + 1) if (plane, pod) in spines
            ]
            if not pods:
                continue
            up = self.spine_uplinks(len(pods[0][0].ports))  # only down ports exist so far
            if up % per_group:
                self.error("TOP004", f"spine uplinks ({up}) must divide evenly over the "
                           f"{per_group} cores of its group", TOPO + ("cores",))
                self.fail_if_errors()
            per_core = up // per_group
            cores = []
            for c in range(1, t.cores + 1):
                core = self._switch("core", 3, plane=plane, index=c)
                if core is None or not self.need_cages(
                        core, [(len(pods) * per_core, sc.speed, TOPO + ("spine_core", "speed"))],
                        TOPO + ("cores",)):
                    self.fail_if_errors()
                    return
                cores.append(core)
            core_down = {core.name: self.switch_ports(core, len(pods) * per_core, sc.speed,
                                                      sc.cable) for core in cores}
            source = TOPO + ("spine_core",)
            for pod_no, row in enumerate(pods):
                for j, spine in enumerate(row):
                    ups = self.switch_ports(spine, up, sc.speed, sc.cable)
                    for g in range(per_group):
                        core = cores[j * per_group + g]
                        for k in range(per_core):
                            self.connect(ups[g * per_core + k],
                                         core_down[core.name][pod_no * per_core + k],
                                         source=source)
