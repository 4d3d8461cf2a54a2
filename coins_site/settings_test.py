"""Settings for the test suite: the site's settings with a test-only secret key (so the
server, which refuses to run without one, starts in the browser tests) and a fast password
hasher (PBKDF2's deliberate slowness would dominate the suite's time)."""

import os

os.environ.setdefault("SECRET_KEY", "coins-tests-only-not-a-secret")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests make many tables for one person; the limits' own tests set them back.
COINS_MAX_WAITING_TABLES = 1000
COINS_MAX_RUNNING_GAMES = 1000
# Test sockets play whole games without pauses; the throttle's own tests set these back.
COINS_SOCKET_BURST = 10_000
COINS_SOCKET_RATE = 10_000.0
# Every test signs up from 127.0.0.1; the throttles' own tests set the limits back. Counters
# stay in each process (a cache.clear() must never flush the Redis the channel layer uses).
COINS_SIGNUPS_PER_HOUR = 10_000
COINS_RESETS_PER_HOUR_FROM_ADDRESS = 10_000
COINS_ADDRESS_POST_BURST = COINS_ADDRESS_SOCKET_BURST = 10_000  # coins_site/address_rate.py
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Presence frames follow arrivals quickly (tests wait on presence_frames.announcements_sent).
COINS_PRESENCE_EVERY = 0.05
# Reset mails are sent in the request's own thread, which sees the test's transaction; the
# background sender's own tests turn it back on (with transactional databases).
COINS_RESET_MAIL_IN_BACKGROUND = False
# Test processes running side by side (pytest-xdist) each have a database of their own, and
# so the same game ids: their sockets must not meet in Redis's groups.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _alias, _layer in CHANNEL_LAYERS.items():  # noqa: F405
        if "Redis" in _layer["BACKEND"]:
            _layer["CONFIG"]["prefix"] = f"{_alias}-{os.environ['PYTEST_XDIST_WORKER']}"
# Analyses in tests use tiny budgets (the engine's own tests judge the analysis itself).
COINS_ANALYSIS_ITERATIONS = 6
COINS_ANALYSIS_LUCK_DEALS = 8
COINS_ANALYSIS_ROOM = 1.0  # tests never wait on how busy the machine is
# Bot API tests play whole games quickly with one token; the limits' own tests set them back.
COINS_API_MOVES = (10_000, 10_000)
COINS_API_GAMES_AT_ONCE = (1000, 1000)
COINS_API_GAMES_PER_DAY = (10_000, 10_000)
# On SQLite (the embedded default), the test database is a file in memory (tmpfs where there
# is one) rather than Django's shared-cache memory database: there a second connection that
# meets another's write fails at once ("database table is locked") instead of waiting, so
# every test where threads write at once (the 50-way bursts, a table runner beside a
# socket) failed. A file waits its turn (SQLite's busy timeout), as PostgreSQL's locks do.
_db = DATABASES["default"]  # noqa: F405
if _db["ENGINE"] == "django.db.backends.sqlite3":
    import tempfile

    _dir = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    _worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _db["TEST"] = {"NAME": os.path.join(_dir, f"coins-test-{os.getpid()}-{_worker}.sqlite3")}
    _db["OPTIONS"] = {
        **_db.get("OPTIONS", {}),
        "timeout": 30,  # seconds a writer waits for the lock: a 50-way burst queues
        # nothing here needs to survive a power cut, and journal writes cost every test
        "init_command": "PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL;",
    }
