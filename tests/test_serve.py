"""The server's access log keeps invite tokens out."""

import io

from coins_site.serve import RedactingAccessLog, redact


def test_invite_tokens_never_reach_the_access_log():
    stream = io.StringIO()
    log = RedactingAccessLog(stream)
    log(
        "http",
        "complete",
        {
            "client": "127.0.0.1:5",
            "method": "GET",
            "path": "/games/95/?invite=s3cr3t-T0ken_x",
            "status": 200,
            "size": 10,
        },
    )
    log(
        "http",
        "complete",
        {
            "client": "127.0.0.1:5",
            "method": "GET",
            "path": "/games/96/?a=1&invite=abc&b=2",
            "status": 200,
            "size": 10,
        },
    )
    written = stream.getvalue()
    assert "s3cr3t" not in written and "abc" not in written
    assert '"GET /games/95/?invite=[...]" 200' in written and "?a=1&invite=[...]&b=2" in written
    assert redact("GET /rules/") == "GET /rules/"
