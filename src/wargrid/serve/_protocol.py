"""The playground's HTTP/1.1 connection: uvicorn's h11 protocol with a header deadline and a per-client cap.

uvicorn closes an idle kept-alive connection, but a connection that sends
half a request head and then nothing is kept for ever, and each one counts
against ``limit_concurrency``: a few dozen such sockets ("slowloris") turn
every other request into a 503. This protocol

- closes a connection whose request head (request line and headers) is not
  complete ``header_timeout`` seconds after the connection opened (or, on a
  kept-alive connection, after the next request's first bytes came);
- closes at once a new connection from an address that already holds
  ``max_per_client`` open connections.

Imported by ``wargrid.serve.server_for`` only (it imports uvicorn and h11).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["protocol_class"]


def _host_of(connection: object) -> str | None:
    client = getattr(connection, "client", None)
    return str(client[0]) if isinstance(client, tuple) and client else None


def protocol_class(*, header_timeout: float, max_per_client: int) -> type[asyncio.Protocol]:
    """An ``H11Protocol`` subclass with these limits, for ``uvicorn.Config(http=...)``."""

    class GuardedH11Protocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None:
                held = sum(1 for c in self.connections if c is not self and _host_of(c) == host)
                if held >= max_per_client:
                    transport.close()  # connection_lost takes it out of the server's set
                    return
            self._arm_head_timer()

        def _arm_head_timer(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._head_timed_out)

        def _cancel_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()  # still no complete request head: give the slot back

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._arm_head_timer()  # a head under way (the first, or the next on a kept-alive connection)
            else:
                self._cancel_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_head_timer()
            super().connection_lost(exc)

    return GuardedH11Protocol

