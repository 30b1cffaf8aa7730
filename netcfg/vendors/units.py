"""Unit conversions more than one NOS needs, in one place."""

from __future__ import annotations

import math

#: The one meaning of the intent's `mtu`: the largest Ethernet frame a link carries, its 14-byte
#: header counted and its FCS not (IEEE 802.3 header: destination, source, EtherType), which is
#: how Junos counts its media MTU. Every NOS file states what that frame carries in its own
#: unit, through ip_packet() and frame_size(), so both ends of a link carry the same largest IP
#: packet whatever their NOS: 9216 -> 9202 on every NOS.
ETH_HEADER = 14


def ip_packet(frame: int) -> int:
    """The largest IP packet a frame of `frame` bytes (header counted, FCS not) carries."""
    return frame - ETH_HEADER


def frame_size(ip_packet_size: int) -> int:
    """The frame that carries an IP packet of `ip_packet_size` bytes (ip_packet's inverse)."""
    return ip_packet_size + ETH_HEADER


def whole_polls(ms: int, poll_ms: int) -> int:
    """A PFC watchdog time as whole poll intervals (NX-OS multipliers, Junos detection, NVUE
    robustness): at least one, and never shorter than asked, since a watchdog that fires early
    takes a long but legitimate pause for a storm and drops lossless traffic."""
    return max(1, math.ceil(ms / poll_ms))


def syslog_level(severity: str) -> int:
    """An RFC 5424 severity name (`management.syslog_severity`) as its number, 0 emergency to
    7 debug (RFC 5424 section 6.2.1, table 2): each NOS names the same eight levels its way."""
    from typing import get_args

    from netcfg.intent.model import SyslogSeverity

    return list(get_args(SyslogSeverity)).index(severity)
