"""Daphne with an access log that keeps secrets out: ``python -m coins_site.serve ...``
takes Daphne's own arguments.

An invite link carries its table's token (``/games/95/?invite=...``); anyone who can read
the access log could otherwise join every private table. The token is replaced by ``[...]``
before the line is written.
"""

import re

import daphne.cli
from daphne.access import AccessLogGenerator

SECRET_QUERY = re.compile(r"([?&](?:invite|token)=)[^&\s\"]*")


def redact(request_line: str) -> str:
    return SECRET_QUERY.sub(r"\1[...]", request_line)


class RedactingAccessLog(AccessLogGenerator):
    def write_entry(self, host, date, request, *args, **kwargs):
        super().write_entry(host, date, redact(request), *args, **kwargs)


def main() -> None:
    daphne.cli.AccessLogGenerator = RedactingAccessLog
    daphne.cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
