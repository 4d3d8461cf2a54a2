"""``bench_tournament_play`` end to end: scripted people join a tiny Swiss over HTTP, hear
of their table on the tournament page's socket, play it out on the table's socket against a
real Daphne (with its runner and the tournaments' lane), and the standings come out right."""

import pytest
from django.conf import settings
from django.db import connection

from lab.benchmarks.tournament_play import benchmark
from tournaments.management.commands.bench_tournament_play import summary
from tournaments.models import TournamentGame

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the server reads what the test writes
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the server process shares the test database: PostgreSQL only",
    ),
]

ERRORS = ("InvalidMessage", "TimeoutError")  # refused, or not answered within 10 s


def database_url() -> str:
    """The test database, as a URL for the server process."""
    db = settings.DATABASES["default"]
    port = db.get("PORT") or 5432
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{port}/{db['NAME']}"


def test_a_tiny_swiss_is_played_out_through_real_sockets():
    """Three people, one round, games to 2: everyone joins, plays their table to the end
    and sees the tournament finish; every card's update is timed, nothing stalls, and the
    standings are what the game says."""
    figures = benchmark(
        kind="swiss",
        people=3,
        rounds=1,
        think=0,
        target=2,
        bot_pause=0,
        join_spread=0,
        time_limit=120,  # a hang fails here, not at the suite's timeout
        extra_env={"DATABASE_URL": database_url()},
    )
    # On a starved machine Daphne may refuse a socket its consumer did not accept within 5 s
    # (and a neighbour may then wait 15 s): the people open it again, as htmx does; nothing
    # else may go wrong.
    refused = {f"{kind} socket: {error}" for kind in ("page", "table") for error in ERRORS}
    assert set(figures["error_kinds"]) <= refused, figures["error_kinds"]
    assert figures["people_done"] == 3 and figures["people_cut_off"] == 0
    assert figures["games_finished_by_people"] == 3  # one table, three people
    game = TournamentGame.objects.get(tournament_id=figures["tournament"]).game
    assert figures["human_moves"] == game.moves > 0  # every card, by the people, timed
    assert figures["latency_ms"]["p99"] >= figures["latency_ms"]["p50"] > 0
    check = figures["check"]
    assert check["consistent"], check
    assert (check["status"], check["games"], check["entry_games"]) == ("finished", 1, 3)
    assert check["rounds_complete"] == 1
    assert "standings consistent: True" in summary(figures)
