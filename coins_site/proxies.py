"""The visitor's address behind trusted proxies (``COINS_TRUSTED_PROXIES``).

Behind a proxy every connection comes from the proxy, so the visitor's address is in
``X-Forwarded-For``, which each proxy extends on the right with the address it got the request
from. Only the part written by our own proxies can be believed: a visitor can send any header,
so the left of it is whatever they like. ``ForwardedClient`` reads the header only when the
direct peer is a trusted proxy, walks it from the right over trusted hops and takes the first
untrusted address: the one our outermost proxy saw. It rewrites ``scope["client"]``, so
Django's ``REMOTE_ADDR`` (and every per-address limit) and the sockets' scope carry it.
Daphne's own ``--proxy-headers`` takes the leftmost entry, which the visitor chooses: never
use it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from django.core.exceptions import ImproperlyConfigured

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

UNIX = "unix"  # a peer without an address: a proxy on this host talking over a Unix socket


class TrustedProxies:
    """Addresses and networks of our own proxies (``"unix"``: connections over a socket)."""

    def __init__(self, entries: Iterable[str]):
        self.networks: list[Network] = []
        self.unix = False
        for entry in (item.strip() for item in entries):
            if entry.lower() == UNIX:
                self.unix = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError as error:
                raise ImproperlyConfigured(
                    f"COINS_TRUSTED_PROXIES: {entry!r} is neither an address nor a network "
                    "(e.g. 10.0.0.0/8, 2001:db8::1, unix)."
                ) from error

    def __bool__(self) -> bool:
        return bool(self.networks) or self.unix

    def trusts(self, address: Address | None) -> bool:
        if address is None:
            return self.unix
        return any(address in network for network in self.networks)


def parse_address(text: str) -> Address | None:
    """An address as proxies write it (``1.2.3.4``, ``1.2.3.4:80``, ``[2001:db8::1]:443``,
    ``2001:db8::1``), IPv4-mapped IPv6 as IPv4; None for anything else (``unknown``,
    obfuscated names, garbage)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def visitor_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: TrustedProxies
) -> str | None:
    """The visitor's address for a connection from ``peer`` carrying these
    ``X-Forwarded-For`` values (in header order), or None to keep the peer's.

    The header counts only when the peer is trusted; then the right-most untrusted entry is
    the visitor (all trusted: the left-most). An entry that is not an address where the
    walk needs one makes the whole header count for nothing: the peer stays the address.
    """
    peer_address = parse_address(peer) if peer is not None else None
    if peer is not None and peer_address is None:
        return None
    if not trusted.trusts(peer_address) or not forwarded_for:
        return None
    hops = [hop for value in forwarded_for for hop in value.split(",")]
    visitor = None
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            return None
        visitor = address
        if not trusted.trusts(address):
            break
    return str(visitor) if visitor is not None else None


class ForwardedClient:
    """ASGI middleware for HTTP and WebSocket alike: ``scope["client"]`` becomes the
    visitor's address when the connection comes from a trusted proxy (see the module)."""

    HEADER = b"x-forwarded-for"

    def __init__(self, app, trusted: Iterable[str] | None = None):
        self.app = app
        if trusted is None:
            from django.conf import settings

            trusted = settings.COINS_TRUSTED_PROXIES
        self.trusted = TrustedProxies(trusted)

    async def __call__(self, scope, receive, send):
        if self.trusted and scope["type"] in ("http", "websocket"):
            scope = self.rewritten(scope)
        return await self.app(scope, receive, send)

    def rewritten(self, scope: dict) -> dict:
        values = [
            value.decode("latin-1")
            for name, value in scope.get("headers", ())
            if name == self.HEADER
        ]
        client = scope.get("client")
        peer = client[0] if client else None
        visitor = visitor_address(peer, values, self.trusted)
        if visitor is None:
            return scope
        # The visitor's port is not ours to know. "coins.forwarded_by": the proxy that vouched.
        return {**scope, "client": [visitor, 0], "coins.forwarded_by": peer or UNIX}
