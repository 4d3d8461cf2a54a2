"""Log lines as JSON objects (``LOG_FORMAT=json``), one per line, for log collectors.

Each line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message`` and, when there
is one, ``exception`` (the formatted traceback): a multi-line traceback stays one line.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime


def json_line(**fields) -> str:
    """One log line: the fields in the given order, non-ASCII kept, anything else as text."""
    return json.dumps(fields, ensure_ascii=False, default=str)


def utc_time(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = {
            "time": utc_time(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            fields["exception"] = record.exc_text
        if record.stack_info:
            fields["stack"] = self.formatStack(record.stack_info)
        return json_line(**fields)
