"""The buffer, ECN and DCQCN rules of this layer: stable ids, severity, one-line summary,
and the rule of shared/specs/dcqcn-ecn-ecmp.md section 6 each implements."""

from __future__ import annotations

from netcfg.findings import Rule

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("BUF001", "error", "headroom of a switch does not fit its ASIC buffer",
         "reserved PFC headroom (and the shared headroom pool) must fit the packet buffer, "
         "or the ASIC rejects or clips it and lossless traffic drops", "P4"),
    Rule("BUF002", "warning", "too little buffer left shared after headroom",
         "the shared pool absorbs bursts and sets the dynamic thresholds; starving it makes "
         "PFC fire early", "P4"),
    Rule("BUF003", "warning", "more than two lossless priorities",
         "each lossless priority reserves a full headroom on every port", "P6"),
    Rule("ECN001", "error", "ECN thresholds do not form a valid RED curve",
         "needs 0 < Kmin < Kmax and Kmin of at least one maximum-size frame", "E2"),
    Rule("ECN002", "error", "ECN Kmax at or above the queue's dynamic limit",
         "the queue is capped (and its ingress PG sends XOFF) before marking reaches 100 %, "
         "so PFC acts before ECN", "E3"),
    Rule("ECN003", "error", "ECN Kmin at or above the PG's XOFF trigger",
         "PFC fires before the first CE mark, so DCQCN never gets a signal", "E4"),
    Rule("ECN004", "warning", "ECN marking probability above 20 %",
         "a steep marking curve makes DCQCN oscillate (paper 1 %, SONiC sample 5 %)", "E5"),
    Rule("ECN005", "warning", "ECN Kmin below BDP/7",
         "marking too early costs throughput (DCTCP analysis: K > C*RTT/7)", "E6"),
    Rule("ECN006", "error", "ECN thresholds not expressible on the device's NOS",
         "Junos drop profiles take percents of the queue buffer, in (0, 100]", "E2"),
    Rule("DCQ001", "error", "DCQCN needs ECN on the RoCE queue, or a design note when off",
         "DCQCN needs the congestion point (switch ECN) and both NIC roles; running without "
         "it is a design choice that must say what controls congestion instead", "E1"),
    Rule("DCQ002", "error", "CNPs are not classified into a strict, non-lossless queue",
         "CNPs stuck behind RoCE data, or paused with it, defeat congestion control", "E7"),
    Rule("DCQ003", "warning", "CNP interval longer than the rate-reduction period",
         "a CNP can cause at most one decrease per period; a longer CNP interval leaves "
         "periods without a signal", "E8"),
    Rule("DCQ004", "error", "DCQCN rate parameters do not fit the NIC line rate",
         "needs rpg_min_rate > 0, rpg_ai_rate < rpg_hai_rate < line rate, rpg_max_rate 0 or "
         "at least line rate", "E9"),
    Rule("DCQ005", "warning", "the RoCE class is not lossless",
         "RoCE then relies on ECN alone and drops under incast", "P2"),
)}
