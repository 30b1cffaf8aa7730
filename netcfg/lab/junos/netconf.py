"""NETCONF over an SSH subsystem channel: hello exchange, then RFC 6242 framing — the
end-of-message marker `]]>]]>` (base:1.0) or chunked framing (base:1.1) when both peers
announce base:1.1."""

from __future__ import annotations

import asyncssh

EOM = b"]]>]]>"
BASE_10 = "urn:ietf:params:netconf:base:1.0"
BASE_11 = "urn:ietf:params:netconf:base:1.1"


class Framing:
    """Reads and writes whole NETCONF messages on one channel."""

    def __init__(self, process: asyncssh.SSHServerProcess) -> None:
        self.process = process
        self.chunked = False

    async def read(self) -> bytes | None:
        """The next message, None at end of stream."""
        reader = self.process.stdin
        try:
            if not self.chunked:
                data = await reader.readuntil(EOM)
                return data[: -len(EOM)]
            parts: list[bytes] = []
            while True:
                header = await reader.readuntil(b"\n")
                if header.strip() == b"":
                    continue
                if not header.startswith(b"#"):
                    raise asyncssh.ProtocolError("bad chunk header")
                if header.strip() == b"##":
                    return b"".join(parts)
                size = int(header.strip()[1:])
                parts.append(await reader.readexactly(size))
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            return None
        except Exception:  # noqa: BLE001 - EOF or a torn connection ends the session
            return None

    def write(self, message: str) -> None:
        data = message.encode()
        if self.chunked:
            self.process.stdout.write(b"\n#%d\n" % len(data) + data + b"\n##\n")
        else:
            self.process.stdout.write(data + EOM)

    def hello(self, session_id: int, base11: bool) -> None:
        caps = [BASE_10] + ([BASE_11] if base11 else []) + [
            "urn:ietf:params:netconf:capability:candidate:1.0",
            "urn:ietf:params:netconf:capability:confirmed-commit:1.0",
            "urn:ietf:params:netconf:capability:validate:1.0",
            "urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp,file",
            "http://xml.juniper.net/netconf/junos/1.0",
            "http://xml.juniper.net/dmi/system/1.0",
        ]
        body = "".join(f"<capability>{c}</capability>" for c in caps)
        data = (f'<!-- No zombies were killed during the creation of this user interface -->\n'
                f'<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities>{body}'
                f"</capabilities><session-id>{session_id}</session-id></hello>")
        self.process.stdout.write(data.encode() + EOM)
