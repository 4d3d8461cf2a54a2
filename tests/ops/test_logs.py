"""LOG_FORMAT=json: every log line one JSON object; plain text by default."""

import io
import json
import logging
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from coins_site.logs import JsonFormatter
from coins_site.serve import RedactingAccessLog

ROOT = Path(__file__).resolve().parents[2]


def test_a_record_with_a_traceback_is_one_json_line():
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        record = logging.getLogger("coins.test").makeRecord(
            "coins.test",
            logging.ERROR,
            __file__,
            1,
            "Game %s failed: «%s»",
            (7, "é"),
            sys.exc_info(),
        )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    fields = json.loads(line)
    assert list(fields) == ["time", "level", "logger", "message", "exception"]
    assert fields["level"] == "ERROR" and fields["logger"] == "coins.test"
    assert fields["message"] == "Game 7 failed: «é»"
    assert "ValueError: bad\nthing" in fields["exception"]
    assert datetime.fromisoformat(fields["time"]).utcoffset().total_seconds() == 0


def log_from_a_process(log_format: str | None) -> list[str]:
    """Configure Django as a server would, log an info line and an exception."""
    env = {k: v for k, v in os.environ.items() if k != "LOG_FORMAT"}
    if log_format:
        env["LOG_FORMAT"] = log_format
    env["DJANGO_SETTINGS_MODULE"] = "coins_site.settings"
    script = (
        "import django, logging, warnings; django.setup()\n"
        "warnings.warn('a warning is a log line too')\n"
        "logging.getLogger('games.table.runner').info('Table runner started in process %s', 1)\n"
        "try:\n    1 / 0\nexcept ZeroDivisionError:\n"
        "    logging.getLogger('django.request').exception('Internal Server Error: /x')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stderr.splitlines()


def test_json_logs_from_a_configured_process():
    lines = log_from_a_process("json")
    records = [json.loads(line) for line in lines]  # every line is one object
    assert [r["logger"] for r in records] == ["py.warnings", "games.table.runner", "django.request"]
    assert "a warning is a log line too" in records[0]["message"]
    assert records[1]["message"] == "Table runner started in process 1"
    assert "ZeroDivisionError" in records[2]["exception"] and records[2]["level"] == "ERROR"


def test_plain_text_by_default():
    lines = log_from_a_process(None)
    assert "Table runner started in process 1" in lines
    assert "Traceback" in "\n".join(lines)


def test_the_access_log_is_json_too_and_still_hides_invite_tokens():
    stream = io.StringIO()
    log = RedactingAccessLog(stream, as_json=True)
    details = {"client": "127.0.0.1:5", "method": "GET", "path": "/games/9/?invite=s3cr3t"}
    log("http", "complete", {**details, "status": 200, "size": 10})
    entry = json.loads(stream.getvalue())
    assert "s3cr3t" not in stream.getvalue()
    assert entry["logger"] == "access" and entry["status"] == 200
    assert entry["request"] == "GET /games/9/?invite=[...]" and entry["level"] == "INFO"
