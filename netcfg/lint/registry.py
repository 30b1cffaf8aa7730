"""Every rule netcfg knows, in one registry: stable id, severity, summary, rationale, source.

The checks live with their layer (schema in netcfg/intent, physics, render capabilities,
deadlock, the cross-device rules of netcfg/lint); this module only gathers their identities so
`netcfg lint --list-rules`, docs/rules.md, SARIF and JUnit all describe the same set.
Sources name the rule of shared/specs/dcqcn-ecn-ecmp.md section 6 where one applies.
"""

from __future__ import annotations

from netcfg.findings import Rule

#: Loader and schema rules (netcfg/intent); ids as `netcfg validate` has always emitted them.
SCHEMA_RULES: tuple[Rule, ...] = (
    Rule("YAML001", "error", "inventory or file missing, unreadable or too large",
         "nothing can be checked without the intent", "netcfg/intent/yamlsrc.py"),
    Rule("YAML002", "error", "file is not UTF-8",
         "names and descriptions are copied into configs; the encoding must be known",
         "YAML 1.2 section 5.2"),
    Rule("YAML003", "error", "YAML syntax error, merge key, several documents or odd keys",
         "constructs whose meaning differs between YAML parsers are refused", "YAML 1.2"),
    Rule("YAML004", "error", "duplicate key (also across fabric.yaml and devices.yaml)",
         "PyYAML silently keeps the last value; the first one would be lost unseen",
         "YAML 1.2 section 3.2.1.1 (keys are unique)"),
    Rule("YAML005", "error", "alias expansion too large, too many values or too deep",
         "an alias bomb ('billion laughs') or millions of values would exhaust memory; more "
         "than 2,000,000 values are refused while parsing", "netcfg/intent/yamlsrc.py"),
    Rule("YAML006", "error", "empty file", "an empty intent is always a mistake",
         "netcfg/intent/yamlsrc.py"),
    Rule("YAML007", "error", "top level is not a mapping of sections",
         "the intent is a mapping of sections (fabric, topology, qos, ...)", "docs/intent.md"),
    Rule("SCH001", "error", "unknown key",
         "a misspelt key would otherwise be ignored and its default used", "docs/intent.md"),
    Rule("SCH002", "error", "missing required key",
         "required values (cable lengths, speeds, a waiver's reason) have no safe default",
         "docs/intent.md; P5 (cable length of every lossless port)"),
    Rule("SCH003", "error", "wrong type or value out of range",
         "strict types: '400' is not 400G and yes is not true", "docs/intent.md"),
    Rule("SCH004", "error", "quantity without a unit or with an unknown unit",
         "a bare 40 could be metres or feet, bytes or cells", "docs/intent.md (units)"),
    Rule("SCH005", "error", "unsafe text or invalid name",
         "line breaks and control characters would inject lines into device configs",
         "docs/intent.md (free text and injection)"),
    Rule("REF001", "error", "undefined QoS class referenced",
         "default, RoCE and CNP classes must exist to classify traffic", "docs/intent.md"),
    Rule("REF002", "error", "unknown platform or NIC",
         "buffer sizes, ports and the NOS come from the platform catalog",
         "netcfg/platforms/catalog.yaml"),
    Rule("REF003", "error", "unknown device, port or link referenced",
         "overrides and deadlock scenarios must name things that exist", "docs/intent.md"),
    Rule("REF004", "error", "undefined credentials referenced",
         "a device would have no way to log in", "docs/intent.md"),
    Rule("REF005", "warning", "override pattern that matches no device or port",
         "a typo in a glob silently applies its settings nowhere", "docs/intent.md"),
    Rule("REF006", "error", "unknown NOS release",
         "spellings differ between releases: a file for a release netcfg does not know may be "
         "refused by the switch", "netcfg/platforms/catalog.yaml (releases)"),
    Rule("QOS001", "error", "DSCP value in two classes",
         "a code point is classified into exactly one traffic class", "P2"),
    Rule("QOS002", "error", "lossless class without PFC, or PFC on a priority no lossless "
         "class uses", "a lossless class without PFC drops; PFC without a class wastes headroom",
         "P1; IEEE 802.1Qbb"),
    Rule("QOS003", "error", "more lossless priorities than the ASIC supports",
         "the ASIC cannot give each a priority group", "P6; platform catalog"),
    Rule("QOS004", "error", "traffic class used by two classes",
         "two classes sharing a queue share its PFC and ECN", "P2"),
    Rule("QOS005", "error", "ETS weights do not add up to 100 percent",
         "the NOSes reject or rescale such weights differently", "IEEE 802.1Qaz"),
    Rule("TOP001", "error", "not enough ports on a platform for the topology",
         "the links cannot be cabled", "netcfg/platforms/catalog.yaml"),
    Rule("TOP002", "error", "speed not supported by a platform or NIC",
         "the port cannot run at that speed", "netcfg/platforms/catalog.yaml"),
    Rule("TOP003", "error", "address or ASN pool too small",
         "devices would share addresses or ASNs", "RFC 7938"),
    Rule("TOP004", "error", "topology shape not divisible",
         "uplinks, spines or pods must divide evenly for a symmetric fabric", "docs/intent.md"),
    Rule("TOP005", "error", "bad link (self link, port used twice)",
         "such a link cannot be cabled", "docs/intent.md"),
    Rule("TOP006", "error", "duplicate device name",
         "names identify devices in configs, inventories and findings", "docs/intent.md"),
)

#: Deadlock checker rules (netcfg/deadlock/check.py).
DEADLOCK_RULES: tuple[Rule, ...] = (
    Rule("DLK001", "error", "cyclic buffer dependency in the configured scenario",
         "a cycle of PFC-paused queues can deadlock the fabric for good",
         "P8, P11 (forwarding loops), P9 (modelled flooding); Hu 2016; Dally & Seitz 1987"),
    Rule("DLK002", "error", "a set of K failed links creates a cyclic buffer dependency",
         "routing after failures bounces traffic into down-up turns (--failures K)",
         "P8, P12; Hu 2016; Tagger 2017"),
    Rule("DLK003", "warning", "flows that cannot be delivered in the configured scenario",
         "unroutable flows hint at a wrong failure set or routing rule", "P11"),
    Rule("DLK004", "warning", "a rewrite tag maps to a priority without PFC",
         "packets of that tag are lossy: no deadlock, but they may be dropped", "P12; Tagger 2017"),
    Rule("DLK005", "info", "the failure sweep could not enumerate every set",
         "the proof covers only the sets checked", "netcfg/deadlock/sweep.py"),
)


def _groups() -> list[tuple[str, tuple[Rule, ...]]]:
    from netcfg.intent.reach import RULES as REACH
    from netcfg.lint.consistency import RULES as CONSISTENCY
    from netcfg.lint.prefixes import RULES as PREFIXES
    from netcfg.lint.raw import RULES as RAW
    from netcfg.lint.routing import RULES as ROUTING
    from netcfg.lint.waive import RULES as WAIVERS
    from netcfg.physics.rules import RULES as PHYSICS
    from netcfg.vendors.checks import RULES as CAPABILITIES
    from netcfg.verify.rules import RULES as VERIFY

    return [("schema", SCHEMA_RULES), ("physics", tuple(PHYSICS.values())),
            ("render capabilities", tuple(CAPABILITIES.values())),
            ("deadlock", DEADLOCK_RULES),
            ("consistency", tuple(CONSISTENCY.values()) + tuple(REACH.values())),
            ("routing", tuple(ROUTING.values()) + tuple(PREFIXES.values())),
            ("raw config", tuple(RAW.values())),
            ("waivers", tuple(WAIVERS.values())), ("verify", tuple(VERIFY.values()))]


def all_rules() -> dict[str, Rule]:
    """Every rule by id, in a stable order (by layer, then id)."""
    return {r.id: r for _, group in _groups() for r in group}


def layers() -> dict[str, str]:
    """Rule id -> the layer that checks it (docs group rules by it)."""
    return {r.id: name for name, group in _groups() for r in group}
