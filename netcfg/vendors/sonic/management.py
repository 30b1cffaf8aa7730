"""SONiC management tables from the intent's management plane: NTP_SERVER, SYSLOG_SERVER,
SNMP/SNMP_COMMUNITY, AAA with TACPLUS/TACPLUS_SERVER or RADIUS/RADIUS_SERVER, BANNER_MESSAGE and
DNS_NAMESERVER, each as SONiC's own YANG models spell it (../shared/sonic-yang: sonic-ntp,
sonic-syslog, sonic-snmp, sonic-system-aaa, sonic-system-tacacs, sonic-system-radius,
sonic-banner, sonic-dns). eth0 stays in the default VRF (a factory box has no management VRF:
../shared/factory/DEFAULTS.md), so no entry names a VRF; NTP|global is the switch's own (its
first-boot `src_intf eth0` already sends NTP from the management port) and is not rendered.
"""

from __future__ import annotations

from typing import Any

from netcfg.render.plan import AAA_KEY, SNMP_COMMUNITY, DevicePlan
from netcfg.vendors.units import syslog_level

#: RFC 5424 severity number -> sonic-syslog.yang `severity` enum (none, debug, info, notice,
#: warn, error, crit): SONiC has no alert or emergency level, so those take crit (the servers
#: then also get critical messages: more, never fewer, than asked)
SYSLOG_SEVERITY = {0: "crit", 1: "crit", 2: "crit", 3: "error", 4: "warn", 5: "notice",
                   6: "info", 7: "debug"}


def tables(plan: DevicePlan) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if plan.ntp_servers:
        # sonic-ntp.yang NTP_SERVER_LIST: association_type server (not pool), iburst on
        out["NTP_SERVER"] = {s: {"association_type": "server", "iburst": "on"}
                             for s in plan.ntp_servers}
    if plan.syslog_servers:
        entry = {} if plan.syslog_severity is None else {
            "severity": SYSLOG_SEVERITY[syslog_level(plan.syslog_severity)]}
        out["SYSLOG_SERVER"] = {s: dict(entry) for s in plan.syslog_servers}
    if plan.snmp is not None:
        snmp: dict[str, Any] = {}
        if plan.snmp.location:
            snmp["LOCATION"] = {"Location": plan.snmp.location}
        if plan.snmp.contact:
            snmp["CONTACT"] = {"Contact": plan.snmp.contact}
        if snmp:
            out["SNMP"] = snmp
        if plan.snmp.community:  # the community itself is put in by `netcfg push`
            out["SNMP_COMMUNITY"] = {SNMP_COMMUNITY: {"TYPE": "RO"}}
    if plan.aaa is not None:
        tacacs = plan.aaa.protocol == "tacacs+"
        # sonic-system-aaa.yang: login `tacacs+,local` needs TACPLUS|global passkey (must);
        # local after the servers keeps a way in when none answers. hostcfgd asks the servers
        # by priority, highest first, so the intent's first server gets the highest
        out["AAA"] = {"authentication": {"login": f"{plan.aaa.protocol},local"}}
        servers = {ip: {"priority": str(len(plan.aaa.servers) - n)}
                   for n, ip in enumerate(plan.aaa.servers)}
        if tacacs:
            out["TACPLUS"] = {"global": {"passkey": AAA_KEY}}
            out["TACPLUS_SERVER"] = servers
        else:
            out["RADIUS"] = {"global": {"passkey": AAA_KEY}}
            out["RADIUS_SERVER"] = servers
    if plan.banners is not None and (plan.banners.login or plan.banners.motd):
        banner: dict[str, str] = {"state": "enabled"}
        if plan.banners.login:
            banner["login"] = plan.banners.login
        if plan.banners.motd:
            banner["motd"] = plan.banners.motd
        out["BANNER_MESSAGE"] = {"global": banner}
    if plan.dns_servers:
        out["DNS_NAMESERVER"] = {s: {} for s in plan.dns_servers}
    return out
