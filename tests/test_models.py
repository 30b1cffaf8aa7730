"""The intent models (netcfg/intent/model.py, qos.py) and the platform catalog."""

from __future__ import annotations

import ipaddress
import string

import pytest
from pydantic import BaseModel, ValidationError

from netcfg.intent import model as M
from netcfg.intent import qos as Q
from netcfg.intent.base import IntentModel
from netcfg.platforms import (
    CATALOG_PATH,
    Asic,
    Catalog,
    Nic,
    Platform,
    PortMode,
    Sourced,
    load_catalog,
)

LINK = {"speed": "400G", "cable": "3m"}
RAIL = {"kind": "rail_optimized", "scalable_units": 1, "nodes_per_su": 2, "spines": 2,
        "host_leaf": LINK, "leaf_spine": LINK}


def errors(model: type[BaseModel], data) -> list[dict]:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(data)
    return exc.value.errors()


def error_types(model, data) -> set[str]:
    return {e["type"] for e in errors(model, data)}


def all_models() -> list[type[IntentModel]]:
    seen: list[type[IntentModel]] = []
    for mod in (M, Q):
        for obj in vars(mod).values():
            if isinstance(obj, type) and issubclass(obj, IntentModel) and obj is not IntentModel \
                    and obj not in seen:
                seen.append(obj)
    return seen


# --------------------------------------------------------------------------- QoS defaults


def test_default_classes():
    qos = Q.Qos()
    assert set(qos.classes) == {"roce", "cnp", "best-effort"}
    roce, cnp, be = qos.classes["roce"], qos.classes["cnp"], qos.classes["best-effort"]
    assert roce.dscp == [26] and roce.traffic_class == 3 and roce.lossless is True
    assert roce.scheduling == Q.Scheduling(mode="ets", weight=50)
    assert cnp.dscp == [48] and cnp.traffic_class == 6 and cnp.lossless is False
    assert cnp.scheduling.mode == "strict" and cnp.scheduling.weight is None
    assert be.traffic_class == 0 and be.lossless is False
    assert be.scheduling == Q.Scheduling(mode="ets", weight=50)
    assert (qos.default_class, qos.roce_class, qos.cnp_class) == ("best-effort", "roce", "cnp")


def test_default_pfc_priorities_derived_from_lossless_classes():
    qos = Q.Qos()
    assert qos.pfc.priorities is None
    assert qos.pfc_priorities() == [3]
    assert qos.lossless_classes() == ["roce"]


def test_pfc_priorities_follow_custom_classes():
    qos = Q.Qos.model_validate({"classes": {
        "a": {"dscp": [26], "traffic_class": 3, "lossless": True,
              "scheduling": {"mode": "ets", "weight": 40}},
        "b": {"dscp": [24], "traffic_class": 4, "lossless": True,
              "scheduling": {"mode": "ets", "weight": 60}},
        "c": {"dscp": [48], "traffic_class": 6, "scheduling": {"mode": "strict"}},
    }})
    assert qos.pfc_priorities() == [3, 4]
    explicit = Q.Qos.model_validate({"pfc": {"priorities": [4, 3, 3]}})
    assert explicit.pfc_priorities() == [3, 4]


def test_watchdog_defaults():
    wd = Q.Qos().pfc.watchdog
    assert wd.enabled is True
    assert wd.detection == 200_000.0  # us = 200 ms
    assert wd.restoration == 200_000.0
    assert wd.action == "drop"
    assert wd.poll_interval == 100_000.0


def test_watchdog_parses_units():
    wd = Q.Watchdog.model_validate({"detection": "100ms", "restoration": "1s", "action": "alert"})
    assert wd.detection == 100_000.0 and wd.restoration == 1_000_000.0
    assert "action" in str(errors(Q.Watchdog, {"action": "ignore"})[0]["loc"])
    assert error_types(Q.Watchdog, {"detection": 200}) == {"unit_missing"}


def test_ecn_on_for_lossless_class_only():
    qos = Q.Qos()
    assert qos.ecn_of("roce").enabled is True
    assert qos.ecn_of("cnp").enabled is False
    assert qos.ecn_of("best-effort").enabled is False
    ecn = qos.ecn_of("roce")
    assert ecn.min is None and ecn.max is None and ecn.max_probability is None


def test_ecn_explicit_wins():
    qos = Q.Qos.model_validate({"classes": {
        "roce": {"dscp": [26], "traffic_class": 3, "lossless": True,
                 "scheduling": {"mode": "ets", "weight": 100},
                 "ecn": {"enabled": False}},
        "be": {"dscp": [0], "traffic_class": 0, "scheduling": {"mode": "strict"},
               "ecn": {"min": "150KB", "max": "1.5MB", "max_probability": 10}},
    }})
    assert qos.ecn_of("roce").enabled is False
    be = qos.ecn_of("be")
    assert be.enabled is True and be.min == 150_000 and be.max == 1_500_000
    assert be.max_probability == 10


def test_ecmp_defaults():
    ecmp = Q.Ecmp()
    assert ecmp.fields == ["src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port"]
    assert ecmp.seeds == {"leaf": 10, "spine": 25, "core": 40}
    assert ecmp.algorithm == "default" and ecmp.mode == "static" and ecmp.resilient is False
    assert ecmp.flowlet_inactivity == 256.0


def test_ecmp_rejects_unknown_hash_field_and_empty_list():
    assert error_types(Q.Ecmp, {"fields": ["src_port"]}) == {"literal_error"}
    assert error_types(Q.Ecmp, {"fields": []}) == {"too_short"}
    assert error_types(Q.Ecmp, {"seeds": {"host": 1}}) == {"literal_error"}


def test_dcqcn_defaults_are_firmware_defaults():
    d = Q.Dcqcn()
    assert d.enabled is True
    assert d.rp.rpg_time_reset == 300 and d.rp.rpg_byte_reset == 32767
    assert d.rp.rpg_ai_rate == 5 and d.rp.rpg_hai_rate == 50 and d.rp.rpg_gd == 11
    assert d.rp.dce_tcp_g == 1019 and d.rp.initial_alpha_value == 1023
    assert d.np.cnp_dscp is None and d.np.cnp_802p_prio is None


@pytest.mark.parametrize("value", [-1, 64, 100])
def test_dscp_range(value):
    errs = errors(Q.QosClass, {"dscp": [value], "traffic_class": 3,
                               "scheduling": {"mode": "strict"}})
    assert errs[0]["type"] == "dscp_range"
    assert "not a valid DSCP (0-63)" in errs[0]["msg"]
    assert errs[0]["loc"] == ("dscp", 0)


@pytest.mark.parametrize("value", [-1, 8])
def test_traffic_class_range(value):
    errs = errors(Q.QosClass, {"dscp": [1], "traffic_class": value,
                               "scheduling": {"mode": "strict"}})
    assert errs[0]["type"] == "priority_range"
    assert errs[0]["loc"] == ("traffic_class",)


def test_dscp_boundaries_ok():
    c = Q.QosClass.model_validate({"dscp": [0, 63], "traffic_class": 7,
                                   "scheduling": {"mode": "strict"}})
    assert c.dscp == [0, 63] and c.lossless is False and c.ecn is None


# --------------------------------------------------------------------------- Scheduling


def test_scheduling_rules():
    assert Q.Scheduling(mode="strict").weight is None
    assert Q.Scheduling(mode="ets", weight=1).weight == 1
    assert Q.Scheduling(mode="ets", weight=100).weight == 100
    assert error_types(Q.Scheduling, {"mode": "ets"}) == {"ets_weight"}
    assert error_types(Q.Scheduling, {"mode": "strict", "weight": 10}) == {"strict_weight"}
    assert error_types(Q.Scheduling, {"mode": "ets", "weight": 0}) == {"greater_than_equal"}
    assert error_types(Q.Scheduling, {"mode": "ets", "weight": 101}) == {"less_than_equal"}
    assert error_types(Q.Scheduling, {"mode": "wrr", "weight": 10}) == {"literal_error"}
    assert error_types(Q.Scheduling, {"weight": 10}) == {"missing"}


def test_scheduling_messages():
    assert "needs a weight" in errors(Q.Scheduling, {"mode": "ets"})[0]["msg"]
    assert "takes no weight" in errors(Q.Scheduling, {"mode": "strict", "weight": 5})[0]["msg"]


# --------------------------------------------------------------------------- strictness


@pytest.mark.parametrize("model, data, loc", [
    (M.FabricMeta, {"name": "x", "mtu": "9216"}, ("mtu",)),
    (M.NodeSpec, {"gpus": "8"}, ("gpus",)),
    (Q.Scheduling, {"mode": "ets", "weight": "50"}, ("weight",)),
    (Q.QosClass, {"dscp": ["26"], "traffic_class": 3, "scheduling": {"mode": "strict"}},
     ("dscp", 0)),
    (M.Asns, {"leaf_base": "65000"}, ("leaf_base",)),
])
def test_no_str_to_int_coercion(model, data, loc):
    errs = errors(model, data)
    assert errs[0]["type"] == "int_type"
    assert errs[0]["loc"] == loc


def test_no_float_or_bool_coercion():
    assert error_types(M.FabricMeta, {"name": "x", "mtu": 9216.0}) == {"int_type"}
    assert error_types(Q.Ecn, {"enabled": "yes"}) == {"bool_type"}
    assert error_types(Q.Ecn, {"enabled": 1}) == {"bool_type"}
    assert error_types(M.FabricMeta, {"name": 5}) == {"string_type"}


@pytest.mark.parametrize("model", all_models(), ids=lambda m: m.__name__)
def test_unknown_key_rejected_with_allowed_keys(model):
    errs = errors(model, {"definitely_not_a_key": 1})
    unknown = [e for e in errs if e["type"] == "unknown_keys"]
    assert len(unknown) == 1
    ctx = unknown[0]["ctx"]
    assert ctx["keys"] == ["definitely_not_a_key"]
    assert ctx["allowed"] == model.allowed_keys()
    assert ctx["allowed"] == sorted(ctx["allowed"])
    assert "definitely_not_a_key" not in ctx["allowed"]
    assert "definitely_not_a_key" in unknown[0]["msg"]


def test_unknown_keys_lists_every_unknown_key():
    errs = errors(M.FabricMeta, {"name": "x", "mtux": 1, "nmae": 2})
    assert errs[0]["ctx"]["keys"] == ["mtux", "nmae"]
    assert errs[0]["ctx"]["allowed"] == ["description", "l3_mtu", "mtu", "name"]


def test_models_are_frozen():
    meta = M.FabricMeta(name="x")
    with pytest.raises(ValidationError):
        meta.mtu = 1500  # type: ignore[misc]


def test_fabric_meta_defaults_and_bounds():
    meta = M.FabricMeta(name="lab-1")
    assert meta.mtu == 9216 and meta.description is None
    assert error_types(M.FabricMeta, {"name": "x", "mtu": 1499}) == {"greater_than_equal"}
    assert error_types(M.FabricMeta, {"name": "x", "mtu": 9217}) == {"less_than_equal"}
    assert error_types(M.FabricMeta, {}) == {"missing"}


# --------------------------------------------------------------------------- Name / Text


@pytest.mark.parametrize("name", ["a", "A", "0", "leaf-su1-r1", "x.y_z-1", "a" * 63])
def test_name_ok(name):
    assert M.FabricMeta(name=name).name == name


@pytest.mark.parametrize("name", ["", "-a", ".a", "_a", "a b", "a/b", "a:b", "a\nb", "a\x00",
                                  "a" * 64, "é", "a\u200b"])
def test_name_rejected(name):
    errs = errors(M.FabricMeta, {"name": name})
    assert errs[0]["type"] == "bad_name"
    assert "not a valid name" in errs[0]["msg"]
    assert "\n" not in errs[0]["msg"]  # the offending value is escaped


@pytest.mark.parametrize("text", ["plain text", "tabs\u00a0and nbsp", "ünïcödé ok", "x" * 240, ""])
def test_text_ok(text):
    assert M.FabricMeta(name="x", description=text).description == text


@pytest.mark.parametrize("text, offset", [
    ("line1\nline2", 5), ("cr\r", 2), ("tab\there", 3), ("nul\x00", 3), ("bell\x07", 4),
    ("esc\x1b[31m", 3), ("del\x7f", 3), ("ls\u2028", 2), ("ps\u2029", 2), ("zwj\u200d", 3),
    ("bidi\u202e", 4), ("c1\x85", 2),
])
def test_text_rejects_control_chars(text, offset):
    errs = errors(M.FabricMeta, {"name": "x", "description": text})
    assert errs[0]["type"] == "unsafe_text"
    assert errs[0]["ctx"]["offset"] == offset
    assert errs[0]["ctx"]["char"] in (text[offset], repr(text[offset]))
    assert f"at offset {offset}" in errs[0]["msg"]
    assert "one printable line" in errs[0]["msg"]


def test_text_error_message_shows_the_character():
    msg = errors(M.FabricMeta, {"name": "x", "description": "a\tb"})[0]["msg"]
    assert "{char!r}" not in msg
    assert "\\t" in msg


def test_text_max_length():
    errs = errors(M.FabricMeta, {"name": "x", "description": "x" * 241})
    assert errs[0]["type"] in ("string_too_long", "too_long")


def test_text_applies_to_port_and_link_descriptions():
    assert error_types(M.PortSettings, {"description": "a\nb"}) == {"unsafe_text"}
    assert error_types(M.ExplicitLink, {"ends": ["a", "b"], "description": "a\rb"}) == \
        {"unsafe_text"}
    assert error_types(M.Settings, {"description": "a\x1bb"}) == {"unsafe_text"}


# --------------------------------------------------------------------------- topology


def test_link_class():
    lc = M.LinkClass.model_validate({"speed": "400G", "cable": "150cm", "medium": "dac"})
    assert lc.speed == 400_000 and lc.cable == 1.5 and lc.medium == "dac"
    assert error_types(M.LinkClass, {"speed": 400, "cable": "3m"}) == {"unit_missing"}
    assert error_types(M.LinkClass, {"speed": "400G", "cable": "3m", "medium": "copper"}) == \
        {"literal_error"}
    assert error_types(M.LinkClass, {"speed": "400G"}) == {"missing"}


def test_node_spec_defaults():
    n = M.NodeSpec()
    assert (n.gpus, n.nics, n.nic) == (8, 8, "connectx-7")
    assert error_types(M.NodeSpec, {"nics": 0}) == {"greater_than_equal"}
    assert error_types(M.NodeSpec, {"nics": 17}) == {"less_than_equal"}


def test_rail_optimized_defaults():
    t = M.RailOptimized.model_validate(RAIL)
    assert t.tiers == 2 and t.planes == 1 and t.leaf_uplinks is None
    assert t.sus_per_pod is None and t.cores is None and t.spine_core is None
    assert t.cross_rail == "fabric"
    assert t.naming == M.Naming()
    assert t.host_leaf.speed == 400_000 and t.host_leaf.cable == 3.0
    assert error_types(M.RailOptimized, {**RAIL, "tiers": 4}) == {"literal_error"}
    assert error_types(M.RailOptimized, {**RAIL, "planes": 5}) == {"less_than_equal"}
    assert error_types(M.RailOptimized, {**RAIL, "scalable_units": 0}) == {"greater_than_equal"}


def test_naming_defaults():
    n = M.Naming()
    assert n.host == "gpu-su{su}-n{node}" and n.leaf == "leaf-su{su}-r{rail}"
    assert n.spine == "spine{index}" and n.core == "core{index}"


def test_explicit_link_shorthand():
    t = M.Explicit.model_validate({
        "kind": "explicit", "link_defaults": LINK,
        "devices": {"a": {"tier": 1}, "b": {"tier": 2}},
        "links": [["a", "b"], {"ends": ["b", "a"], "lossless": False, "speed": "800G"}],
    })
    assert t.links[0] == M.ExplicitLink(ends=["a", "b"])
    assert t.links[0].lossless is True and t.links[0].speed is None
    assert t.links[1].lossless is False and t.links[1].speed == 800_000
    assert t.link_defaults.speed == 400_000 and t.link_defaults.cable == 3.0


def test_explicit_link_ends_are_pairs_of_names():
    base = {"kind": "explicit", "link_defaults": LINK, "devices": {"a": {"tier": 1}}}
    assert error_types(M.Explicit, {**base, "links": [["a"]]}) == {"too_short"}
    assert error_types(M.Explicit, {**base, "links": [["a", "b", "c"]]}) == {"too_long"}
    assert error_types(M.Explicit, {**base, "links": [["a", "b c"]]}) == {"bad_name"}
    assert error_types(M.Explicit, {**base, "links": ["a"]}) == {"model_type"}


def test_explicit_device():
    d = M.ExplicitDevice(tier=1)
    assert d.role is None and d.platform is None and d.nic is None
    assert error_types(M.ExplicitDevice, {"tier": 4}) == {"less_than_equal"}
    assert error_types(M.ExplicitDevice, {"tier": 1, "role": "router"}) == {"literal_error"}
    assert error_types(M.Explicit, {"kind": "explicit", "devices": {}, "links": [],
                                    "link_defaults": LINK}) == {"too_short"}


def test_explicit_link_defaults_default():
    t = M.Explicit.model_validate({"kind": "explicit", "devices": {"a": {"tier": 1}},
                                   "links": []})
    assert t.link_defaults.speed == 400_000 and t.link_defaults.cable == 3.0


def _intent(topology: dict) -> dict:
    return {"fabric": {"name": "x"}, "topology": topology}


def test_topology_union_discriminated_by_kind():
    rail = M.Intent.model_validate(_intent(RAIL)).topology
    assert isinstance(rail, M.RailOptimized)
    explicit = M.Intent.model_validate(_intent({
        "kind": "explicit", "link_defaults": LINK, "devices": {"a": {"tier": 1}}, "links": []}))
    assert isinstance(explicit.topology, M.Explicit)


def test_topology_union_errors_name_one_branch():
    errs = errors(M.Intent, _intent({"kind": "ring"}))
    assert [e["type"] for e in errs] == ["union_tag_invalid"]
    errs = errors(M.Intent, _intent({"scalable_units": 1}))
    assert [e["type"] for e in errs] == ["union_tag_not_found"]
    # a rail key on an explicit topology is reported against the explicit model only
    errs = errors(M.Intent, _intent({"kind": "explicit", "devices": {"a": {"tier": 1}},
                                     "links": [], "link_defaults": LINK, "spines": 2}))
    assert [e["type"] for e in errs] == ["unknown_keys"]
    assert errs[0]["loc"][:2] == ("topology", "explicit")
    assert "devices" in errs[0]["ctx"]["allowed"] and "spines" not in errs[0]["ctx"]["allowed"]


@pytest.mark.parametrize("kind", [[1], {"a": 1}, None, 5])
def test_topology_union_unhashable_or_odd_kind(kind):
    errs = errors(M.Intent, _intent({"kind": kind}))
    assert errs and errs[0]["type"].startswith("union_tag")


def test_intent_minimal_defaults():
    intent = M.Intent.model_validate(_intent(RAIL))
    assert intent.platforms == {}
    assert intent.qos == Q.Qos() and intent.ecmp == Q.Ecmp() and intent.dcqcn == Q.Dcqcn()
    assert intent.routing.protocol == "ebgp" and intent.routing.max_paths is None
    assert intent.credentials == {} and intent.devices == {}
    assert intent.overrides == M.Overrides()
    assert intent.addressing.loopbacks == ipaddress.IPv4Network("10.0.0.0/16")
    assert intent.addressing.fabric_links == ipaddress.IPv4Network("10.64.0.0/10")
    assert intent.addressing.host_links == ipaddress.IPv4Network("10.128.0.0/10")
    assert intent.addressing.management is None


def test_intent_requires_fabric_and_topology():
    assert error_types(M.Intent, {}) == {"missing"}
    locs = {e["loc"] for e in errors(M.Intent, {})}
    assert locs == {("fabric",), ("topology",)}


def test_platforms_roles_restricted():
    errs = errors(M.Intent, {**_intent(RAIL), "platforms": {"tor": "x"}})
    assert errs[0]["type"] == "literal_error"


# --------------------------------------------------------------------------- routing, addressing


def test_asns_plan_defaults():
    a = M.Asns()
    assert (a.leaf, a.spine, a.core) == ("unique", "per_pod", "shared")
    assert a.leaf_base == 4_200_000_000
    assert a.spine_base == 4_200_100_000
    assert a.core_base == 4_200_200_000
    assert M.Routing().asn == a
    assert error_types(M.Asns, {"leaf": "per_pod"}) == {"literal_error"}
    assert error_types(M.Asns, {"core": "per_pod"}) == {"literal_error"}
    assert error_types(M.Asns, {"leaf_base": 0}) == {"greater_than_equal"}
    assert error_types(M.Asns, {"leaf_base": 4_294_967_295}) == {"less_than_equal"}


def test_deadlock_defaults():
    d = M.Deadlock()
    assert d.model == "auto" and d.max_bounces == 1 and d.k == 1 and d.max_hops == 6
    assert d.traffic == "auto" and d.failures == [] and d.dead_hosts == [] and d.rules == []
    assert d.priority_rewrite is None


def test_priority_rewrite_union():
    d = M.Deadlock.model_validate({"priority_rewrite": {"kind": "tag_on_bounce",
                                                        "tags_to_priorities": [3, 4]}})
    assert isinstance(d.priority_rewrite, M.TagOnBounce)
    d = M.Deadlock.model_validate({"priority_rewrite": {
        "kind": "increment_on_channel", "channels": [["a", "b"]], "tags_to_priorities": [3]}})
    assert isinstance(d.priority_rewrite, M.IncrementOnChannel)
    assert error_types(M.Deadlock, {"priority_rewrite": {"kind": "x"}}) == {"union_tag_invalid"}


def test_routing_rule():
    r = M.RoutingRule.model_validate({"at": "s1", "dst": "t1", "out_to": []})
    assert r.in_from == "any" and r.out_to == []
    r = M.RoutingRule.model_validate({"at": "s1", "dst": "t1", "out_to": "all_except_ingress"})
    assert r.out_to == "all_except_ingress"
    assert "missing" in error_types(M.RoutingRule, {"at": "s1", "dst": "t1"})


def test_addressing_prefixes():
    a = M.Addressing.model_validate({"loopbacks": "10.0.0.0/24", "management": "192.0.2.0/24"})
    assert a.loopbacks == ipaddress.IPv4Network("10.0.0.0/24")
    assert a.management == ipaddress.IPv4Network("192.0.2.0/24")
    assert error_types(M.Addressing, {"loopbacks": "10.0.0.1/24"}) == {"prefix"}
    assert error_types(M.Addressing, {"loopbacks": "10.0.0.0/33"}) == {"prefix"}
    assert error_types(M.Addressing, {"loopbacks": "2001:db8::/64"}) == {"prefix"}
    assert error_types(M.Addressing, {"loopbacks": 167772160}) == {"prefix_type"}


def test_management_address():
    m = M.Management.model_validate({"address": "192.0.2.10/24"})
    assert str(m.address) == "192.0.2.10/24" and m.port is None
    assert str(M.Management.model_validate({"address": "192.0.2.10"}).address) == "192.0.2.10/32"
    assert error_types(M.Management, {"address": "192.0.2.300"}) == {"address"}
    assert error_types(M.Management, {"address": 1}) == {"address_type"}
    assert error_types(M.Management, {"address": "192.0.2.1", "port": 0}) == \
        {"greater_than_equal"}


def test_credential_and_device_entry():
    c = M.Credential.model_validate({"username": "admin", "password_env": "NETCFG_PASSWORD"})
    assert c.file is None
    assert error_types(M.Credential, {"password": "secret"}) == {"unknown_keys"}
    assert error_types(M.DeviceEntry, {"credentials": "bad name"}) == {"bad_name"}


def test_overrides():
    o = M.Overrides.model_validate({
        "roles": {"leaf": {"mtu": 9000}},
        "devices": {"leaf-su1-*": {"mtu": 9100, "pfc_watchdog": {"action": "alert"}}},
        "ports": {"leaf-su1-r1:swp1s0": {"cable": "5m", "lossless": False}},
    })
    assert o.roles["leaf"].mtu == 9000
    assert o.devices["leaf-su1-*"].pfc_watchdog.action == "alert"
    assert o.devices["leaf-su1-*"].pfc_watchdog.detection is None
    assert o.ports["leaf-su1-r1:swp1s0"].cable == 5.0
    assert error_types(M.Overrides, {"roles": {"host": {}}}) == {"literal_error"}
    assert error_types(M.Overrides, {"ports": {"x:y": {"platform": "p"}}}) == {"unknown_keys"}


# --------------------------------------------------------------------------- platform catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _numeric_fields(entry: BaseModel) -> list[str]:
    return [n for n, v in entry if isinstance(v, (int, float)) and not isinstance(v, bool)]


def test_catalog_loads(catalog):
    assert CATALOG_PATH.exists()
    assert catalog.asics and catalog.platforms and catalog.nics
    assert "nvidia-sn5600-cumulus" in catalog.platforms
    assert "connectx-7" in catalog.nics


def test_every_catalog_number_has_a_source(catalog):
    entries = [*catalog.asics.items(), *catalog.platforms.items(), *catalog.nics.items()]
    for name, entry in entries:
        assert isinstance(entry, Sourced)
        for field in _numeric_fields(entry):
            assert field in entry.sources, f"{name}.{field} has no source"
            assert entry.sources[field].strip(), f"{name}.{field} has an empty source"


def test_sourced_validator_rejects_unsourced_number(catalog):
    asic = catalog.asics["spectrum-4"].model_dump(mode="json")
    assert Asic.model_validate(asic)
    del asic["sources"]["cell"]
    errs = errors(Asic, asic)
    assert "no source given for cell" in errs[0]["msg"]
    plat = catalog.platforms["nvidia-sn5600-cumulus"].model_dump(mode="json")
    plat["sources"] = {"model": "x"}
    msg = errors(Platform, plat)[0]["msg"]
    assert "cages" in msg and "lanes_per_cage" in msg
    nic = catalog.nics["connectx-7"].model_dump(mode="json")
    nic["sources"] = {}
    assert "too_short" in error_types(Nic, nic)


def test_every_platform_asic_exists(catalog):
    for name, p in catalog.platforms.items():
        assert p.asic in catalog.asics, name


def test_catalog_rejects_unknown_asic(catalog):
    data = catalog.model_dump(mode="json")
    data["platforms"]["nvidia-sn5600-cumulus"]["asic"] = "spectrum-9"
    errs = errors(Catalog, data)
    assert "unknown asic spectrum-9" in errs[0]["msg"]


def _format(mode: PortMode, platform: Platform, cage0: int, sub0: int) -> str:
    lanes_per_port = platform.lanes_per_cage // mode.per_cage
    return mode.name.format(cage=cage0 + 1, cage0=cage0, sub=sub0 + 1, sub0=sub0,
                            lane0=cage0 * platform.lanes_per_cage + sub0 * lanes_per_port,
                            lane1=sub0 * lanes_per_port + 1)


def test_every_mode_name_template_formats(catalog):
    allowed = set(string.ascii_letters + string.digits + "/:-.")
    for name, p in catalog.platforms.items():
        for mode in p.modes:
            assert p.lanes_per_cage % mode.per_cage == 0, (name, mode)
            names = [_format(mode, p, c, s) for c in range(p.cages) for s in range(mode.per_cage)]
            assert len(set(names)) == len(names), f"{name} {mode.name}: names not unique"
            assert all(n and set(n) <= allowed for n in names), (name, mode.name)


def test_platform_modes_and_speeds(catalog):
    for name, p in catalog.platforms.items():
        speeds = [m.speed for m in p.modes]
        assert len(speeds) == len(set(speeds)), name
        assert p.speeds() == sorted(speeds)
        for m in p.modes:
            assert p.mode_for(m.speed) is m
        assert p.mode_for(1) is None


def test_nic_port_name_formats(catalog):
    for name, nic in catalog.nics.items():
        names = [nic.port_name.format(port0=i) for i in range(8)]
        assert len(set(names)) == 8, name


def test_asic_lossless_limits(catalog):
    for name, a in catalog.asics.items():
        assert 1 <= a.lossless_priorities_max <= 8, name
        assert a.buffer > a.cell > 0, name
