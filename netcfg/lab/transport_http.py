"""HTTP(S) listener for JSON-RPC management APIs (EOS eAPI, NX-API), on aiohttp's low-level
server: no routing framework is needed, and it gives the transport for drops and hangs.

Basic authentication and the slow/hang faults are handled here; the emulator's handler gets
the parsed request and returns a `web.Response`, or raises `Dropped` to close the connection
without a reply (what a client sees when a device dies mid-request).
"""

from __future__ import annotations

import asyncio
import base64
import ssl
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from netcfg.lab.device import Dropped, Listener

if TYPE_CHECKING:
    from netcfg.lab.device import Emulator


def basic_auth(request: web.BaseRequest) -> tuple[str, str] | None:
    """(user, password) from an Authorization: Basic header, None if absent or malformed."""
    header = request.headers.get("Authorization", "")
    if not header.lower().startswith("basic "):
        return None
    try:
        user, _, password = base64.b64decode(header[6:]).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    return user, password


class HttpListener(Listener):
    """One aiohttp server on (host, port); TLS with the device's certificate when `tls`."""

    def __init__(self, device: Emulator, handler: Callable[[web.BaseRequest], Awaitable[Any]],
                 tls: bool, host: str, port: int) -> None:
        super().__init__("https" if tls else "http", host, port)
        self.device = device
        self.handler = handler
        self.tls = tls
        self._server: asyncio.base_events.Server | None = None
        self._web = web.Server(self._handle, access_log=None)

    def _ssl(self) -> ssl.SSLContext | None:
        if not self.tls:
            return None
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(self.device.trust.cert, self.device.trust.key)
        return ctx

    async def open(self) -> None:
        if self._server is not None:
            return
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._web, self.host, self.port, ssl=self._ssl(),
                                                reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    def shut(self) -> None:
        if self._server is not None:
            self._server.close()
        self.drop_all()

    async def close(self) -> None:
        self.shut()
        if self._server is None:
            return
        server, self._server = self._server, None
        await server.wait_closed()

    def drop_all(self) -> None:
        """Abort every connection, idle keep-alive ones included (a rebooted device keeps no
        TCP state, so a pooled client connection must fail too, not reach the new boot).

        A connection that aiohttp has begun to close is left to finish: asyncio's TLS
        transport forgets its protocol when closed twice, and aborting it after that raises.
        """
        for handler in self._web.connections:
            transport = handler.transport
            if transport is not None and not transport.is_closing():
                transport.abort()

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        try:
            creds = basic_auth(request)
            if creds is None or not self.device.check_password(*creds):
                return web.Response(status=401, text="Unauthorized",
                                    headers={"WWW-Authenticate": 'Basic realm="device"'})
            await self.device.gate("request")
            return await self.handler(request)
        except Dropped:
            transport = request.transport
            if transport is not None and not transport.is_closing():
                transport.abort()
            raise asyncio.CancelledError() from None
