"""Semantic checks the schema cannot express: references, DSCP conflicts, PFC consistency.

`check_intent` needs only the intent; `check_fabric` runs after expansion, when device names
exist. Both return located findings and never raise.
"""

from __future__ import annotations

from netcfg.findings import Finding
from netcfg.intent.base import suggest
from netcfg.intent.load import LoadedIntent
from netcfg.intent.overrides import is_glob, matching_keys
from netcfg.intent.reach import check_reach
from netcfg.platforms import Catalog, load_catalog


def check_intent(loaded: LoadedIntent, catalog: Catalog | None = None) -> list[Finding]:
    catalog = catalog or load_catalog()
    out: list[Finding] = []
    out += _classes(loaded)
    out += _pfc(loaded)
    out += _platforms(loaded, catalog)
    out += _credentials(loaded)
    return out


def _classes(li: LoadedIntent) -> list[Finding]:
    qos = li.intent.qos
    out = []
    owner: dict[int, str] = {}
    tc_owner: dict[int, str] = {}
    for name, cls in qos.classes.items():
        for i, dscp in enumerate(cls.dscp):
            if dscp in owner:
                other = owner[dscp]
                where = "twice in this class" if other == name else f"also in class '{other}'"
                out.append(li.finding("QOS001", f"DSCP {dscp} is mapped {where}; a DSCP value "
                                      "belongs to exactly one class",
                                      ("qos", "classes", name, "dscp", i)))
            owner[dscp] = name
        tc = cls.traffic_class
        if tc in tc_owner:
            out.append(li.finding("QOS004", f"traffic class {tc} is already used by class "
                                  f"'{tc_owner[tc]}'; each class needs its own traffic class "
                                  "(0-7)", ("qos", "classes", name, "traffic_class")))
        tc_owner.setdefault(tc, name)
    names = tuple(qos.classes)
    for key in ("default_class", "roce_class", "cnp_class"):
        ref = getattr(qos, key)
        if ref not in qos.classes:
            out.append(li.finding("REF001", f"class '{ref}' is not defined{suggest(ref, names)}; "
                                  f"classes: {', '.join(names)}", ("qos", key)))
    ets = {n: c.scheduling.weight for n, c in qos.classes.items() if c.scheduling.mode == "ets"}
    if ets and sum(w or 0 for w in ets.values()) != 100:
        detail = " + ".join(f"{n} {w}" for n, w in ets.items())
        out.append(li.finding("QOS005", f"ETS weights must add up to 100 percent: {detail} = "
                              f"{sum(w or 0 for w in ets.values())}", ("qos", "classes")))
    return out


def _pfc(li: LoadedIntent) -> list[Finding]:
    qos = li.intent.qos
    if qos.pfc.priorities is None:
        return []
    out = []
    pfc = set(qos.pfc.priorities)
    lossless_tcs = {}
    for name, cls in qos.classes.items():
        if cls.lossless:
            lossless_tcs[cls.traffic_class] = name
            if cls.traffic_class not in pfc:
                out.append(li.finding(
                    "QOS002", f"class '{name}' is lossless but PFC is not enabled on its "
                    f"priority {cls.traffic_class} (qos.pfc.priorities: {sorted(pfc)})",
                    ("qos", "classes", name, "lossless")))
    for i, prio in enumerate(qos.pfc.priorities):
        if prio not in lossless_tcs:
            out.append(li.finding(
                "QOS002", f"PFC is enabled on priority {prio} but no lossless class uses "
                f"traffic class {prio}; mark the class lossless or remove the priority",
                ("qos", "pfc", "priorities", i)))
    return out


def _platforms(li: LoadedIntent, catalog: Catalog) -> list[Finding]:
    """Every platform named anywhere exists and supports the lossless priorities asked for."""
    intent = li.intent
    named: list[tuple[str, tuple]] = [(p, ("platforms", r)) for r, p in intent.platforms.items()]
    named += [(s.platform, ("overrides", "roles", r, "platform"))
              for r, s in intent.overrides.roles.items() if s.platform]
    named += [(s.platform, ("overrides", "devices", k, "platform"))
              for k, s in intent.overrides.devices.items() if s.platform]
    topo = intent.topology
    if topo.kind == "explicit":
        named += [(d.platform, ("topology", "devices", n, "platform"))
                  for n, d in topo.devices.items() if d.platform]
    n_lossless = len(intent.qos.pfc_priorities())
    out = []
    known = tuple(catalog.platforms)
    for platform, path in named:
        if platform not in catalog.platforms:
            out.append(li.finding("REF002", f"unknown platform '{platform}'"
                                  f"{suggest(platform, known)}; known: {', '.join(sorted(known))}",
                                  path))
            continue
        asic = catalog.asics[catalog.platforms[platform].asic]
        if n_lossless > asic.lossless_priorities_max:
            out.append(li.finding(
                "QOS003", f"{n_lossless} lossless priorities requested but {platform} "
                f"({asic.vendor} {asic.family}-{asic.generation}) supports at most "
                f"{asic.lossless_priorities_max}", path))
    return out


def _credentials(li: LoadedIntent) -> list[Finding]:
    intent = li.intent
    out = []
    for name, cred in intent.credentials.items():
        if cred.file is None and cred.password_env is None:
            out.append(li.finding("SCH002", f"credential '{name}' needs password_env or file "
                                  "(passwords are never written in the intent)",
                                  ("credentials", name)))
    key = intent.routing.authentication
    if key is not None and key.file is None and key.password_env is None:
        out.append(li.finding("SCH002", "routing.authentication needs password_env or file "
                              "(keys are never written in the intent)",
                              ("routing", "authentication")))
    snmp = intent.management.snmp
    if snmp is not None and snmp.community is not None and snmp.community.file is None \
            and snmp.community.password_env is None:
        out.append(li.finding("SCH002", "management.snmp.community needs password_env or file "
                              "(communities are never written in the intent)",
                              ("management", "snmp", "community")))
    aaa = intent.management.aaa
    if aaa is not None and aaa.key.file is None and aaa.key.password_env is None:
        out.append(li.finding("SCH002", "management.aaa.key needs password_env or file "
                              "(keys are never written in the intent)",
                              ("management", "aaa", "key")))
    for name, user in intent.management.users.items():
        if user.file is None and user.hash_env is None:
            out.append(li.finding("SCH002", f"management.users.{name} needs hash_env or file "
                                  "(hashes are never written in the intent)",
                                  ("management", "users", name)))
        if user.sha256 is not None and user.sha256.file is None and user.sha256.hash_env is None:
            out.append(li.finding("SCH002", f"management.users.{name}.sha256 needs hash_env or "
                                  "file (hashes are never written in the intent)",
                                  ("management", "users", name, "sha256")))
    root = intent.management.root_authentication
    if root is not None and root.file is None and root.hash_env is None:
        out.append(li.finding("SCH002", "management.root_authentication needs hash_env or file "
                              "(hashes are never written in the intent)",
                              ("management", "root_authentication")))
    names = tuple(intent.credentials)
    for dev, entry in intent.devices.items():
        if entry.credentials is not None and entry.credentials not in intent.credentials:
            out.append(li.finding("REF004", f"credentials '{entry.credentials}' are not defined"
                                  f"{suggest(entry.credentials, names)}",
                                  ("devices", dev, "credentials")))
    return out


def check_fabric(fabric) -> list[Finding]:  # noqa: ANN001 - Fabric import would cycle
    """References that need device names: devices.yaml entries, deadlock scenarios."""
    li: LoadedIntent = fabric.loaded
    intent = li.intent
    devices = fabric.devices
    names = tuple(devices)
    out = []

    def ref(name: str, path: tuple, key: bool = False) -> None:
        if name not in devices:
            out.append(li.finding("REF003", f"'{name}' is not a device of this fabric"
                                  f"{suggest(name, names)}", path, key=key))

    for dev in intent.devices:
        ref(dev, ("devices", dev), key=True)
    dl = intent.routing.deadlock
    base = ("routing", "deadlock")
    def cabled(pair: list[str], path: tuple) -> None:
        """`pair` (two names: the schema's `Link`) names two devices with a cable between."""
        for j, end in enumerate(pair):
            ref(end, path + (j,))
        if all(e in devices for e in pair) and not any(
            p.peer is not None and p.peer.device.name == pair[1] for p in devices[pair[0]].ports
        ):
            out.append(li.finding("REF003", f"no link between {pair[0]} and {pair[1]}", path))

    for i, link in enumerate(dl.failures):
        cabled(link, base + ("failures", i))
    if dl.priority_rewrite is not None and dl.priority_rewrite.kind == "increment_on_channel":
        for i, channel in enumerate(dl.priority_rewrite.channels):
            cabled(channel, base + ("priority_rewrite", "channels", i))
    for i, host in enumerate(dl.dead_hosts):
        ref(host, base + ("dead_hosts", i))
    if isinstance(dl.traffic, list):
        for i, pair in enumerate(dl.traffic):
            for j, end in enumerate(pair):
                ref(end, base + ("traffic", i, j))
    for i, rule in enumerate(dl.rules):
        for key in ("at", "dst"):
            ref(getattr(rule, key), base + ("rules", i, key))
        if rule.in_from != "any":
            ref(rule.in_from, base + ("rules", i, "in_from"))
        if isinstance(rule.out_to, list):
            for j, nh in enumerate(rule.out_to):
                ref(nh, base + ("rules", i, "out_to", j))
    return out + _idle_globs(fabric) + check_reach(fabric)


def _idle_globs(fabric) -> list[Finding]:  # noqa: ANN001 - Fabric import would cycle
    """Override globs and raw_config entries that match nothing: most likely a typo
    (`leaf-su9-*` in a two-SU fabric), whose settings then silently apply nowhere."""
    li: LoadedIntent = fabric.loaded
    ov = li.intent.overrides
    out = []
    for section, keys in (("devices", ov.devices), ("ports", ov.ports)):
        globs = [key for key in keys if is_glob(key)]
        if not globs:
            continue  # nothing to match: no list of every switch or port (Port.id each)
        names = ([d.name for d in fabric.switches()] if section == "devices" else
                 [p.id for d in fabric.devices.values() for p in d.ports])
        for key in globs:
            if not any(matching_keys([key], n) for n in names):
                out.append(li.finding("REF005", f"overrides.{section} pattern '{key}' matches "
                                      "nothing: its settings apply nowhere",
                                      ("overrides", section, key), key=True, severity="warning"))
    used = {i for d in fabric.switches() for i in d.raw}
    for i, entry in enumerate(li.intent.raw_config):
        if i not in used:
            out.append(li.finding("REF005", f"raw_config[{i}] for {entry.nos} selects no switch "
                                  "(its NOS, roles and devices together): its lines go nowhere",
                                  ("raw_config", i), severity="warning"))
    return out
