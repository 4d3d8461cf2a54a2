"""Only the site's own pages may open its sockets: scheme, host and port must all match."""

import pytest

from coins_site.websocket_origin import origin_allowed


def handshake(origin: str | None, host: str | None = "coins.example.org", scheme="ws", **more):
    headers = [(b"host", host.encode())] if host is not None else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += [(name.encode(), value.encode()) for name, value in more.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.fixture(autouse=True)
def hosts(settings):
    settings.ALLOWED_HOSTS = ["coins.example.org", "localhost"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.net"]


@pytest.mark.parametrize(
    "scope, allowed",
    [
        (handshake("http://coins.example.org"), True),
        (handshake("HTTP://Coins.Example.org"), True),  # case does not matter
        (handshake("https://coins.example.org", scheme="wss"), True),
        (handshake("http://localhost:8000", host="localhost:8000"), True),
        (handshake("http://localhost:9999", host="localhost:8000"), False),  # another port
        (handshake("https://coins.example.org"), False),  # https page, plain ws socket
        (handshake("http://coins.example.org", scheme="wss"), False),  # and the reverse
        (handshake("http://evil.example.com"), False),
        (handshake("http://evil.example.com", host="evil.example.com"), False),  # not allowed
        (handshake(None), False),
        (handshake("null"), False),
        (handshake("http://coins.example.org", host=None), False),
        (handshake("https://play.example.net"), True),  # trusted, as for forms
    ],
)
def test_the_origin_must_be_the_sockets_own(scope, allowed):
    assert origin_allowed(scope) is allowed


def test_behind_an_https_proxy_the_page_is_https(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = handshake("https://coins.example.org", **{"x-forwarded-proto": "https"})
    assert origin_allowed(proxied)
    assert not origin_allowed(handshake("https://coins.example.org"))
