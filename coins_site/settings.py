"""Settings for the Coins site, read from the environment.

With nothing set, the site runs on SQLite and the in-memory channel layer. ``DATABASE_URL``
switches to PostgreSQL, ``REDIS_URL`` to the Redis channel layer (needed as soon as more
than one Daphne process serves the site). See README.md and docs/operations.md for more.
"""

import logging
import os
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int_pair(name: str, default: str) -> tuple[int, int]:
    """Two whole numbers, "per token,per account" (the Bot API's limits)."""
    first, second = os.environ.get(name, default).split(",")
    return int(first), int(second)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
# Without SECRET_KEY, commands and a DEBUG server run on a development key; a server with
# DEBUG off refuses to start on it (coins_site/asgi.py).
DEVELOPMENT_SECRET_KEY = "django-insecure-coins-development-key-do-not-deploy"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "coins_site.admin_config.CoinsAdminConfig",  # django.contrib.admin, lists rendered lean
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    "ratings",
    "friends",
    "notifications",
    "analysis",
    "puzzles",
    "duplicate",
    "tournaments",
    "botapi",
    "botarena",
    "axes",
    "coins_site.operations",  # /healthz, /metrics, the runners' heartbeats
]

MIDDLEWARE = [
    # First: /healthz and /metrics answer before sessions, hosts or redirects are looked at.
    "coins_site.operations.middleware.OperationsEndpointsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "coins_site.middleware.ContentSecurityPolicyMiddleware",
    # Before any view or database work: NUL and other control characters get a 400.
    "coins_site.middleware.RefuseControlCharactersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "accounts.middleware.SeenMiddleware",  # when a person was last here, for their friends
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.BusyMiddleware",  # too many password hashes at once: 503 page
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into its page
]

# Django's database sessions, read by a statement written once (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"

# Accounts under attack (docs/operations.md, "Accounts under attack"). Log-in lock-out
# (django-axes) is per account AND address: 5 wrong passwords for one account from one
# address pause that pair for 15 minutes; the same account from elsewhere still logs in. On
# top, 20 wrong passwords from one address (over every name) pause that address. An atomic
# gate in the shared cache (accounts/lockout.py, first backend) takes a slot before any
# password is hashed; if the cache is down, axes's database counts decide.
AUTHENTICATION_BACKENDS = [
    "accounts.lockout.LoginGateBackend",
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, reading the person and their profile in one statement.
    "accounts.backends.PersonBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair, together
AXES_RESET_ON_SUCCESS = True
# A refused attempt is not recorded (the pause is not stretched, no database write).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "accounts.lockout.AxesHandler"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"  # the 429 page
AXES_CLIENT_IP_CALLABLE = "accounts.throttles.axes_client_address"  # REMOTE_ADDR, as ours
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False  # no banner on every management command
COINS_LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("COINS_LOGIN_FAILURES_PER_ADDRESS", "20"))
# Password hashing: Django's PBKDF2 (same algorithm name and iterations, so every stored hash
# verifies) with at most COINS_HASHING_SLOTS hashes at once per process, COINS_HASHING_QUEUE
# more waiting at most COINS_HASHING_WAIT seconds, at most COINS_HASHING_PER_ADDRESS of those
# places for one address; beyond that, "busy" (503, Retry-After).
PASSWORD_HASHERS = ["accounts.hashers.BoundedPBKDF2PasswordHasher"]
COINS_HASHING_SLOTS = int(os.environ.get("COINS_HASHING_SLOTS") or 0) or max(
    1, (os.cpu_count() or 1) // 2
)
COINS_HASHING_QUEUE = int(os.environ.get("COINS_HASHING_QUEUE", "4"))
COINS_HASHING_WAIT = float(os.environ.get("COINS_HASHING_WAIT", "1.0"))
COINS_HASHING_PER_ADDRESS = int(os.environ.get("COINS_HASHING_PER_ADDRESS", "2"))

ROOT_URLCONF = "coins_site.urls"
ASGI_APPLICATION = "coins_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # No APP_DIRS: template_partials wraps the loaders itself (see shared/STACK.md).
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_POOL", True
):
    # Under ASGI each database_sync_to_async call may open a connection; a pool reuses them.
    # The pool checks each connection as it hands it out: after PostgreSQL dropped its
    # connections (a restart, pg_terminate_backend) the first request on each would
    # otherwise answer 500. The check is ours (coins_site/db_pool.py: a poll of the socket,
    # an empty query only when the server wrote to an idle connection, swapped in by the
    # backend coins_site.postgresql), not Django's (an empty query every time). Costs:
    # docs/operations.md.
    DATABASES["default"]["ENGINE"] = "coins_site.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_POOL_CHECK", True)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "20")),
    }

if DATABASES["default"]["ENGINE"] in ("django.db.backends.postgresql", "coins_site.postgresql"):
    # A move's batch is prepared once per connection (games/table/move_rows.prepared_cursor
    # asks for it). Django's own cursors bind on the client and never prepare; the threshold
    # (psycopg's automatic preparing) is left out of reach. DATABASE_PREPARED=0 prepares
    # nothing, for a pooler that cannot keep prepared statements (PgBouncer before 1.21 in
    # transaction mode).
    # A generic plan for what is prepared: PostgreSQL otherwise plans the batch again with
    # each run's values for the first runs, and then whenever it guesses that pays.
    _prepared = env_bool("DATABASE_PREPARED", True)
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("prepare_threshold", 10**9 if _prepared else None)
    if _prepared and "options" not in _options:
        _options["options"] = "-c plan_cache_mode=force_generic_plan"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A transaction takes SQLite's write lock as it begins, so requests that count and then
    # write (table limits) are served one after the other, as PostgreSQL's row locks do.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"

REDIS_URL = os.environ.get("REDIS_URL")
CHANNEL_CAPACITY = int(os.environ.get("CHANNEL_CAPACITY", "10000"))
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 would drop idle sockets after 5 s (channels_redis #422).
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                # All the sockets of one process share a single Redis queue, and a group
                # message to a full queue is silently dropped: 100 (the default) lost table
                # updates once a busy worker had 100 tables waiting.
                "capacity": CHANNEL_CAPACITY,
            },
        },
        # The Bot API's game streams wake on Redis pub/sub: each message is pushed to the
        # process, where channels-redis's queues cost each received message three round
        # trips in turn (a hundred streams on one process waited 1.5-3 s for a card).
        "streams": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        },
    }
    COINS_STREAM_LAYER = "streams"
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": CHANNEL_CAPACITY},
        }
    }
    COINS_STREAM_LAYER = "default"  # one process: the in-memory layer pushes already

# Counters shared by every server process (hint limits): Redis when there is one.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "coins-cache",
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The languages the rules of Coins circulate in.
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("ca", _("Catalan")),
    ("fr", _("French")),
    ("id", _("Indonesian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves straight from the app and project folders, so no collectstatic is needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# STATIC_ROOT exists only after collectstatic, which this setup does not need.
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif os.environ.get("EMAIL_FILE_PATH"):  # benchmarks: one file per mail, to count them
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Coins <noreply@localhost>")

# Behind an HTTPS proxy in production: DJANGO_HTTPS=1 turns on the secure-transport settings.
if env_bool("DJANGO_HTTPS", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)

# -- Operations (docs/operations.md) ------------------------------------------------------
# LOG_FORMAT=json: every log line one JSON object (time, level, logger, message, exception),
# the server's access log included; default: plain text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "coins_site.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
if LOG_FORMAT == "json":
    logging.captureWarnings(True)  # Python's warnings become log lines (JSON) too
# Addresses and networks of our own proxies (comma-separated; "unix" for a proxy talking over
# a Unix socket): only from them is X-Forwarded-For believed, read from the right
# (coins_site/proxies.py). Default: none, every peer is the visitor.
COINS_TRUSTED_PROXIES = env_list("COINS_TRUSTED_PROXIES")
# /healthz: a table runner must have beaten within this many seconds (0: no runner check).
COINS_HEALTH_RUNNER_AGE = float(os.environ.get("COINS_HEALTH_RUNNER_AGE", "15"))
# /metrics: answered to these addresses and networks, or to "Authorization: Bearer <token>";
# everyone else gets a 404.
COINS_METRICS_ALLOW = env_list("COINS_METRICS_ALLOW", "127.0.0.0/8,::1")
COINS_METRICS_TOKEN = os.environ.get("COINS_METRICS_TOKEN", "")
# coins_site.serve: a connection whose request headers are not complete this many seconds
# after it became ready for a request is closed (slow-header clients; 0: no limit).
COINS_HEADER_TIMEOUT = float(os.environ.get("COINS_HEADER_TIMEOUT", "10"))

# Game play: the pause before a bot plays (so people can follow the trick). How long a bot
# thinks is the bot's own budget (games/engine/bots), the same everywhere it plays.
COINS_BOT_PAUSE = float(os.environ.get("COINS_BOT_PAUSE", "0.8"))
# A person's card on PostgreSQL in one statement, played on this process's copy of the game
# and written only if the row has not changed since (games/table/unlocked.py); "0": every
# card under the row's lock, as elsewhere.
COINS_UNLOCKED_MOVES = os.environ.get("COINS_UNLOCKED_MOVES", "1") != "0"
# Such a card from a socket is played on the server's event loop, its statement sent on one
# of this many PostgreSQL connections per server process, kept beside Django's pool
# (games/realtime/loop_db.py); "0": in the database threads.
COINS_LOOP_CONNECTIONS = int(os.environ.get("COINS_LOOP_CONNECTIONS", "3"))
# Cards in the loop's part of their play at once: later ones wait their turn, at most
# COINS_LOOP_TURN_WAIT seconds; a card whose statement is out longer than
# COINS_LOOP_TURN_HOLD gives its turn back (games/realtime/loop_card.py). 0: all at once.
COINS_LOOP_CARDS_AT_ONCE = int(os.environ.get("COINS_LOOP_CARDS_AT_ONCE", "1"))
COINS_LOOP_TURN_WAIT = float(os.environ.get("COINS_LOOP_TURN_WAIT", "0.05"))
COINS_LOOP_TURN_HOLD = float(os.environ.get("COINS_LOOP_TURN_HOLD", "0.005"))
# The longest a table runner sleeps between looks at the schedule. It sleeps until the next
# game its own process scheduled is due (games/table/alarm.py), so this bounds how late a game
# is served that was scheduled by a process that died or runs no runner.
COINS_RUNNER_POLL = float(os.environ.get("COINS_RUNNER_POLL", "0.5"))
# Threads (each with a database connection from the pool) per server process, by lane
# (games/realtime/db_threads.py): sockets' own work, and the background loops beside it.
COINS_DB_THREADS = {
    "people": int(os.environ.get("COINS_PEOPLE_THREADS", "6")),
    "background": int(os.environ.get("COINS_BACKGROUND_THREADS", "4")),
}
# Each of those threads keeps its pooled connection between calls: the pool must hold them
# all, with room beside them for requests and the table runner.
if "pool" in DATABASES["default"].get("OPTIONS", {}):
    _lane_threads = sum(COINS_DB_THREADS.values())
    if DATABASES["default"]["OPTIONS"]["pool"]["max_size"] < _lane_threads + 4:
        raise ValueError(
            f"DATABASE_POOL_SIZE must be at least {_lane_threads + 4}: the database threads "
            f"(COINS_PEOPLE_THREADS + COINS_BACKGROUND_THREADS = {_lane_threads}) each keep a "
            "connection, and requests need some beside them."
        )
# Analysis of finished games (analysis/): deals per card and play-outs per seat for a hand's
# luck, how often an idle lane looks for queued games, its worker processes (at a low
# priority), and the lanes that run beside every table runner.
COINS_ANALYSIS_ITERATIONS = int(os.environ.get("COINS_ANALYSIS_ITERATIONS", "300"))
COINS_ANALYSIS_LUCK_DEALS = int(os.environ.get("COINS_ANALYSIS_LUCK_DEALS", "200"))
COINS_ANALYSIS_POLL = float(os.environ.get("COINS_ANALYSIS_POLL", "2"))
COINS_ANALYSIS_PROCESSES = int(os.environ.get("COINS_ANALYSIS_PROCESSES", "1"))
# The analysis works only while the machine's work at normal priority (every process that is
# not niced: servers, PostgreSQL, Redis) takes less than this share of all its CPUs; a
# worker pauses between cards while it takes more (analysis/room.py). 1 never pauses.
COINS_ANALYSIS_ROOM = float(os.environ.get("COINS_ANALYSIS_ROOM", "0.5"))
# Below the room's limit but above this share the tables are being played: the analysis works
# in slices (one moment in four) and leaves the cores idle in between; below it, all the time.
COINS_ANALYSIS_QUIET = float(os.environ.get("COINS_ANALYSIS_QUIET", "0.15"))
# Ratings (ratings/lane.py): how often an idle ratings lane looks for finished games to rate.
COINS_RATINGS_POLL = float(os.environ.get("COINS_RATINGS_POLL", "0.5"))
COINS_RUNNER_LANES = [
    "analysis.lane.analyse_forever",
    "tournaments.lane.pair_forever",
    "ratings.lane.rate_forever",
]
# Puzzles (puzzles/finding.py): a position is a puzzle when every other card's win chance is
# at least this far (0..1) below the best card's.
COINS_PUZZLE_MARGIN = float(os.environ.get("COINS_PUZZLE_MARGIN", "0.10"))
# Web Push ("your turn" in slow games): off unless both VAPID keys are set (``manage.py
# vapid_keys`` makes a pair). The subject is the operator's contact for push services.
COINS_VAPID_PUBLIC_KEY = os.environ.get("COINS_VAPID_PUBLIC_KEY", "")
COINS_VAPID_PRIVATE_KEY = os.environ.get("COINS_VAPID_PRIVATE_KEY", "")
COINS_VAPID_SUBJECT = os.environ.get("COINS_VAPID_SUBJECT", "mailto:admin@localhost")
COINS_PUSH_ALLOW_HTTP = False  # tests only: a push service on plain http
# A bot leading the next trick waits at least this long, so everyone sees who took the last
# one (only when bots pause at all).
COINS_TRICK_PAUSE = float(os.environ.get("COINS_TRICK_PAUSE", "1.5"))
# Per person: tables waiting for players they may have open, games they may play at once,
# and how many of one creator's tables the lobby lists.
COINS_MAX_WAITING_TABLES = int(os.environ.get("COINS_MAX_WAITING_TABLES", "3"))
COINS_MAX_RUNNING_GAMES = int(os.environ.get("COINS_MAX_RUNNING_GAMES", "10"))
COINS_LOBBY_TABLES_PER_CREATOR = int(os.environ.get("COINS_LOBBY_TABLES_PER_CREATOR", "2"))
# The daily duplicate (docs/duplicate.md): games a day, their target, the bot in seats 1 and
# 2 (the hard level's), how many places of each game open their replays once the day has
# closed, and the secret its seeds are drawn from (empty: SECRET_KEY).
COINS_DUPLICATE_GAMES = int(os.environ.get("COINS_DUPLICATE_GAMES", "3"))
COINS_DUPLICATE_TARGET = int(os.environ.get("COINS_DUPLICATE_TARGET", "10"))
COINS_DUPLICATE_BOT = os.environ.get("COINS_DUPLICATE_BOT", "expert-v4")
COINS_DUPLICATE_OPEN_BEST = int(os.environ.get("COINS_DUPLICATE_OPEN_BEST", "3"))
COINS_DUPLICATE_SECRET = os.environ.get("COINS_DUPLICATE_SECRET", "")
COINS_DUPLICATE_TODAY = ""  # tests only: a fixed day instead of the UTC date
# Tournaments (docs/tournaments.md): how often each runner's lane advances them, the bot that
# fills a table's free seats (empty: find-a-game's), and how long one or two people left over
# in an arena wait for others before bots join them.
# Leaderboards' ranks (ratings/ranks.py): the runners re-rank a board whose ratings moved
# after this many seconds; a page ranks it itself if none did for COINS_STANDINGS_STALE.
COINS_STANDINGS_REFRESH = float(os.environ.get("COINS_STANDINGS_REFRESH", "15"))
COINS_STANDINGS_STALE = float(os.environ.get("COINS_STANDINGS_STALE", "300"))
COINS_TOURNAMENT_POLL = float(os.environ.get("COINS_TOURNAMENT_POLL", "1"))
COINS_TOURNAMENT_BOT = os.environ.get("COINS_TOURNAMENT_BOT", "")
COINS_ARENA_BOTS_AFTER = int(os.environ.get("COINS_ARENA_BOTS_AFTER", "30"))
# Messages one socket may send at once, then per second (games/throttle.py).
COINS_SOCKET_BURST = int(os.environ.get("COINS_SOCKET_BURST", "20"))
COINS_SOCKET_RATE = float(os.environ.get("COINS_SOCKET_RATE", "4"))
# Accounts (the shared cache counts; docs/operations.md, "Accounts under attack"): accounts
# created an hour from one address; password-reset requests an hour from one address; reset
# mails an hour to one e-mail address, and to one e-mail address asked from one address.
COINS_SIGNUPS_PER_HOUR = int(os.environ.get("COINS_SIGNUPS_PER_HOUR", "5"))
COINS_RESETS_PER_HOUR_FROM_ADDRESS = int(os.environ.get("COINS_RESETS_PER_HOUR_FROM_ADDRESS", "10"))
COINS_RESETS_PER_HOUR_TO_EMAIL = int(os.environ.get("COINS_RESETS_PER_HOUR_TO_EMAIL", "10"))
COINS_RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS = int(
    os.environ.get("COINS_RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS", "3")
)
# Reset mails are looked up and sent by a background thread (so the answer takes the same
# time whether or not the address has an account); at most this many wait in its queue.
COINS_RESET_MAIL_QUEUE = int(os.environ.get("COINS_RESET_MAIL_QUEUE", "100"))
COINS_RESET_MAIL_IN_BACKGROUND = env_bool("COINS_RESET_MAIL_IN_BACKGROUND", True)
# The site's address in the links of mails (never the request's Host header): by default
# from the first ALLOWED_HOSTS entry, https with DJANGO_HTTPS.
COINS_SITE_URL = os.environ.get("COINS_SITE_URL") or "{}://{}".format(
    "https" if env_bool("DJANGO_HTTPS", False) else "http",
    next((host.lstrip(".") for host in ALLOWED_HOSTS if host.strip(".*")), "localhost"),
)
# Live table sockets (tabs) one person may have open at one table, and over all tables;
# signed-out sockets from one address (over all tables), and at one table (games/presence.py).
COINS_MAX_SOCKETS = int(os.environ.get("COINS_MAX_SOCKETS", "5"))
COINS_MAX_SOCKETS_PER_PERSON = int(os.environ.get("COINS_MAX_SOCKETS_PER_PERSON", "20"))
COINS_MAX_ANONYMOUS_PER_ADDRESS = int(os.environ.get("COINS_MAX_ANONYMOUS_PER_ADDRESS", "10"))
COINS_MAX_ANONYMOUS_PER_TABLE = int(os.environ.get("COINS_MAX_ANONYMOUS_PER_TABLE", "500"))
# Per address and server process, before Django (coins_site/address_rate.py): form posts at
# once, then a second; socket openings at once, then a second.
COINS_ADDRESS_POST_BURST = float(os.environ.get("COINS_ADDRESS_POST_BURST", "20"))
COINS_ADDRESS_POSTS_PER_SECOND = float(os.environ.get("COINS_ADDRESS_POSTS_PER_SECOND", "2"))
COINS_ADDRESS_SOCKET_BURST = float(os.environ.get("COINS_ADDRESS_SOCKET_BURST", "30"))
COINS_ADDRESS_SOCKETS_PER_SECOND = float(os.environ.get("COINS_ADDRESS_SOCKETS_PER_SECOND", "5"))
# Page requests a server process works on at once, and how many may wait for a turn (503
# beyond): Django's threads take turns with the tables' sockets (coins_site/http_slots.py),
# and a page is mostly Python: one at a time (a password hash gives its slot back).
COINS_HTTP_AT_ONCE = int(os.environ.get("COINS_HTTP_AT_ONCE", "1"))
COINS_HTTP_QUEUE = int(os.environ.get("COINS_HTTP_QUEUE", "200"))
# The Bot API's requests (programs' moves) at once per process, beside the pages' slots.
COINS_API_AT_ONCE = int(os.environ.get("COINS_API_AT_ONCE", "8"))
# The Bot API (docs/bot-api.md), each as (per token, per account): moves (cards, resignations,
# chat lines) per COINS_API_MOVE_WINDOW seconds, games at once, new games a day; the clock of
# an API game when none is asked for; the streams' keep-alive (an empty line at least this
# often) and how often a stream reads the database when the channel layer is down.
COINS_API_MOVES = env_int_pair("COINS_API_MOVES", "5,10")
COINS_API_MOVE_WINDOW = int(os.environ.get("COINS_API_MOVE_WINDOW", "1"))
COINS_API_GAMES_AT_ONCE = env_int_pair("COINS_API_GAMES_AT_ONCE", "4,8")
COINS_API_GAMES_PER_DAY = env_int_pair("COINS_API_GAMES_PER_DAY", "300,500")
COINS_API_DEFAULT_CLOCK = int(os.environ.get("COINS_API_DEFAULT_CLOCK", "30"))
COINS_API_KEEPALIVE = float(os.environ.get("COINS_API_KEEPALIVE", "5"))
COINS_API_POLL = float(os.environ.get("COINS_API_POLL", "1"))
# Challenges: how long one stays open (seconds), and how many a token / an account may send
# per COINS_API_CHALLENGE_WINDOW seconds.
COINS_API_CHALLENGE_TTL = int(os.environ.get("COINS_API_CHALLENGE_TTL", "600"))
COINS_API_CHALLENGES = env_int_pair("COINS_API_CHALLENGES", "20,40")
COINS_API_CHALLENGE_WINDOW = int(os.environ.get("COINS_API_CHALLENGE_WINDOW", "3600"))
# Who comes to or leaves a table reaches its sockets this many seconds later, in one frame
# for every arrival and departure meanwhile (games/presence_frames.py).
COINS_PRESENCE_EVERY = float(os.environ.get("COINS_PRESENCE_EVERY", "0.5"))
# Each server process runs a table runner (bots' cards, clocks, ratings: games/runner.py).
COINS_TABLE_RUNNER = env_bool("COINS_TABLE_RUNNER", True)
# Benchmarks only: append the queries spent per move to this file (see games/metrics.py).
COINS_QUERY_LOG = os.environ.get("COINS_QUERY_LOG", "")
# Benchmarks only, with COINS_QUERY_LOG: also log where each card's time goes on the loop
# (common/metrics.Laps). Off unless asked (bench_tables --laps): reading a thread's CPU
# clock is a system call made with the GIL held, 33 us each on average in a loaded server
# against 0.2 us idle (docs/benchmarks.md, twenty-fifth sitting), and the figures of a run
# are to be the site's.
COINS_CARD_LAPS = env_bool("COINS_CARD_LAPS", False)
# Processes that run search bots (the expert) away from the process serving sockets: one
# per core by default.
COINS_THINKING_PROCESSES = (
    int(os.environ.get("COINS_THINKING_PROCESSES") or 0) or os.cpu_count() or 1
)
# Hints think in a lane of their own (games/thinking.py): its worker processes (at a lower
# priority than the bots'), and the hints a server process works on at once before it
# refuses more ("ask again in a moment").
COINS_HINT_PROCESSES = int(os.environ.get("COINS_HINT_PROCESSES", "1"))
COINS_HINTS_AT_ONCE = int(os.environ.get("COINS_HINTS_AT_ONCE", "4"))

# The bot arena (botarena/, docs/bot-arena.md): games at once it keeps going, their clock
# (seconds a card) and target, and how often its scheduler looks (``manage.py bot_arena``, or
# the runners' lane "botarena.lane.arena_forever" when added to COINS_RUNNER_LANES).
COINS_BOT_ARENA_GAMES = int(os.environ.get("COINS_BOT_ARENA_GAMES", "4"))
COINS_BOT_ARENA_CLOCK = int(os.environ.get("COINS_BOT_ARENA_CLOCK", "30"))
COINS_BOT_ARENA_TARGET = int(os.environ.get("COINS_BOT_ARENA_TARGET", "10"))
COINS_BOT_ARENA_POLL = float(os.environ.get("COINS_BOT_ARENA_POLL", "2"))
if env_bool("COINS_BOT_ARENA_LANE", False):  # off by default: every runner would pair
    COINS_RUNNER_LANES = [*COINS_RUNNER_LANES, "botarena.lane.arena_forever"]
