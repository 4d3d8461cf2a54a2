"""The visitor's address behind trusted proxies: X-Forwarded-For read from the right, and
only when the connection comes from one of our own proxies."""

from pathlib import Path

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.exceptions import ImproperlyConfigured

from coins_site.proxies import ForwardedClient, TrustedProxies, parse_address, visitor_address

PROXIES = TrustedProxies(["10.0.0.0/8", "192.0.2.7", "2001:db8::/32"])


@pytest.mark.parametrize(
    ("peer", "header", "visitor"),
    [
        # one proxy: the address it appended, whatever the visitor put before it
        ("10.0.0.2", ["203.0.113.9"], "203.0.113.9"),
        ("10.0.0.2", ["127.0.0.1, 203.0.113.9"], "203.0.113.9"),
        ("10.0.0.2", ["1.1.1.1, 2.2.2.2, 8.8.8.8, 203.0.113.9"], "203.0.113.9"),
        # a chain of our proxies: every trusted hop on the right is skipped
        ("10.0.0.2", ["1.1.1.1, 203.0.113.9, 192.0.2.7, 10.9.9.9"], "203.0.113.9"),
        # the same header split over several lines, in order
        ("10.0.0.2", ["1.1.1.1, 203.0.113.9", "192.0.2.7"], "203.0.113.9"),
        # every hop ours (a request from inside): the farthest one
        ("10.0.0.2", ["10.1.1.1, 10.2.2.2"], "10.1.1.1"),
        # ports and spaces as some proxies write them
        ("10.0.0.2", [" 203.0.113.9:5123 ,10.0.0.8 "], "203.0.113.9"),
        # IPv6 peers and entries, bracketed or not; IPv4-mapped IPv6 is IPv4
        ("2001:db8::1", ["2a00:1450::5, 2001:db8::7"], "2a00:1450::5"),
        ("2001:db8::1", ["[2a00:1450::5]:443"], "2a00:1450::5"),
        ("::ffff:10.0.0.2", ["::ffff:203.0.113.9"], "203.0.113.9"),
    ],
)
def test_the_visitor_is_the_right_most_untrusted_hop(peer, header, visitor):
    assert visitor_address(peer, header, PROXIES) == visitor


@pytest.mark.parametrize("peer", ["203.0.113.50", "2a00:1450::1", "11.0.0.1"])
def test_a_peer_that_is_not_our_proxy_is_the_visitor_whatever_it_says(peer):
    assert visitor_address(peer, ["1.2.3.4"], PROXIES) is None
    assert visitor_address(peer, ["10.0.0.2, 1.2.3.4"], PROXIES) is None


def test_nobody_is_trusted_by_default():
    assert visitor_address("127.0.0.1", ["1.2.3.4"], TrustedProxies([])) is None


@pytest.mark.parametrize(
    "header",
    [
        [""],
        ["garbage"],
        ["unknown"],
        ["203.0.113.9, not-an-address"],  # what our proxy appended is not an address
        ["203.0.113.9, 10.0.0.3, _hidden"],
        [",,,"],
        ["1.2.3.4.5"],
        ["[2a00:1450::5"],
        ["\u00e9\u00e9\u00e9"],
        ["999.1.1.1"],
        ["1.2.3.4, " + "9" * 10_000],
    ],
)
def test_a_malformed_header_leaves_the_proxy_as_the_address(header):
    assert visitor_address("10.0.0.2", header, PROXIES) is None


def test_garbage_left_of_the_visitor_is_never_read():
    assert visitor_address("10.0.0.2", ["garbage, 203.0.113.9"], PROXIES) == "203.0.113.9"


def test_a_unix_socket_peer_is_trusted_only_when_declared():
    assert visitor_address(None, ["203.0.113.9"], TrustedProxies(["unix"])) == "203.0.113.9"
    assert visitor_address(None, ["203.0.113.9"], PROXIES) is None


def test_addresses_are_read_as_proxies_write_them():
    assert str(parse_address("[::1]:80")) == "::1"
    assert str(parse_address("192.0.2.1:8080")) == "192.0.2.1"
    assert parse_address("example.org") is None


def test_a_mistyped_setting_stops_the_start_with_its_reason():
    with pytest.raises(ImproperlyConfigured, match=r"10\.0\.0\.300"):
        TrustedProxies(["10.0.0.0/8", "10.0.0.300"])


class Recorder:
    """An ASGI app that notes the scope it was called with."""

    def __init__(self):
        self.scope = None

    async def __call__(self, scope, receive, send):
        self.scope = scope


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_pages_and_sockets_get_the_visitors_address(kind):
    inner = Recorder()
    app = ForwardedClient(inner, trusted=["10.0.0.0/8"])
    headers = [(b"host", b"coins.example.org"), (b"x-forwarded-for", b"6.6.6.6, 203.0.113.9")]
    scope = {"type": kind, "path": "/", "headers": headers, "client": ["10.0.0.2", 4711]}
    await app(scope, None, None)
    assert inner.scope["client"] == ["203.0.113.9", 0]
    assert inner.scope["coins.forwarded_by"] == "10.0.0.2"
    assert scope["client"] == ["10.0.0.2", 4711]  # the server's own scope is left alone

    await app({**scope, "client": ["172.16.0.1", 1]}, None, None)  # not our proxy
    assert inner.scope["client"] == ["172.16.0.1", 1]


async def test_django_sees_the_visitor_as_remote_addr(settings):
    """Through Django's own ASGI handler: /metrics answers loopback only, so a visitor
    whose trusted proxy says 127.0.0.1 reads it, and one who claims it in front of their
    own address does not."""
    from django.core.asgi import get_asgi_application

    app = ForwardedClient(get_asgi_application(), trusted=["10.0.0.0/8"])

    async def status(forwarded_for: bytes) -> int:
        scope = {
            "type": "http",
            "method": "GET",
            "path": "/metrics",
            "query_string": b"",
            "headers": [(b"host", b"localhost"), (b"x-forwarded-for", forwarded_for)],
            "client": ["10.0.0.2", 4711],
            "server": ["127.0.0.1", 8000],
        }
        talk = ApplicationCommunicator(app, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        await talk.receive_output(10)
        return start["status"]

    assert await status(b"127.0.0.1") == 200
    assert await status(b"127.0.0.1, 203.0.113.9") == 404


def test_the_site_is_wrapped_and_the_readme_uses_the_setting():
    from coins_site.asgi import application

    assert isinstance(application, ForwardedClient)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    production = readme.split("## Production", 1)[1].split("```", 2)[1]
    assert "COINS_TRUSTED_PROXIES=" in production and "coins_site.serve" in production
    assert "--proxy-headers" not in production
