"""The analysis on the pages: the replay labels each card (with the better card and the win
chance before and after it), draws each seat's win chance and steps to the next mistake; the
result panel gives a player their accuracy; the player page shows their progress. Nothing is
shown before the game is over, and "in progress" until the analysis is done."""

import re

import pytest
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from analysis import services
from analysis.models import GameAnalysis
from games.table import seats as table_seats
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


def finished_game(user, target=4, **kwargs):
    game = table_seats.game_create(
        creator=user, target=target, seat_kinds=["me", "careful", "careful"], **kwargs
    )
    return play_out(game, user)


def with_a_blunder(game):
    """Analyse ``game`` and make alice's (seat 0) first card with a choice a blunder whose
    better card is another of hers: the labels are the analysis's, the page's are tested."""
    analysis = services.analyse_now(game)
    plays = analysis.plays
    for play in plays:
        play["label"] = "good" if play["label"] in ("mistake", "blunder") else play["label"]
    play = next(p for p in plays if p["seat"] == 0 and len(p["values"]) > 1)
    best = next(code for code in play["values"] if code != play["card"])
    play["values"][best], play["values"][play["card"]] = 0.62, 0.31
    play.update(best=best, loss=0.31, label="blunder")
    analysis.save(update_fields=["plays"])
    return analysis, play


def replay(client, game, **query):
    return client.get(reverse("game_replay", args=[game.pk]), query).content.decode()


def test_the_replay_says_the_analysis_is_in_progress_and_polls(client, alice):
    game = finished_game(alice)
    client.force_login(alice)
    page = replay(client, game)
    assert "Analysis in progress…" in page and "data-analysis-pending" in page
    status = reverse("analysis_status", args=[game.pk])
    assert f'hx-get="{status}"' in page
    assert client.get(status).status_code == 204  # nothing to swap yet
    services.analyse_now(game)
    done = client.get(status)
    assert done.status_code == 200 and done["HX-Refresh"] == "true"
    assert "Analysis in progress" not in replay(client, game)


def test_a_running_game_shows_no_analysis(client, alice):
    running = table_seats.game_create(
        creator=alice, target=20, seat_kinds=["me", "careful", "careful"]
    )
    client.force_login(alice)
    assert "replay-analysis" not in replay(client, running)
    assert client.get(reverse("analysis_status", args=[running.pk])).status_code == 404
    assert client.get(reverse("analysis_summary", args=[running.pk])).status_code == 404


def test_the_replay_labels_the_cards_with_the_better_card_and_the_chances(client, alice):
    game = finished_game(alice)
    _analysis, blunder = with_a_blunder(game)
    client.force_login(alice)
    page = replay(client, game, hand=blunder["hand"], trick=blunder["trick"])
    assert page.count('class="card-note"') == 3  # every card of the trick is labelled
    assert 'data-label="blunder"' in page and ">??</span> blunder" in page
    assert f'data-better="{blunder["best"]}"' in page
    assert 'data-before="62" data-after="31"' in page
    assert "win chance 62% with the best card, 31% with this one" in page
    # one line per seat in the graph, with its text alternative
    assert len(re.findall(r"<polyline class=\"seat-line", page)) == 3
    assert 'aria-labelledby="chance-graph-caption"' in page
    assert "after the first card" in page
    # the score sheet: accuracy and luck per hand and seat; the game's accuracy per seat
    assert page.count("data-hand-accuracy") >= 1 and page.count("data-hand-luck") >= 3
    assert 'data-accuracy-seat="0"' in page


def next_mistake(page: str) -> tuple[int, int] | None:
    """Where the page's "next mistake" link leads (None: no link)."""
    found = re.search(
        r'href="[^"]*hand=(\d+)&amp;trick=(\d+)"[^>]*data-replay="next-mistake"', page
    )
    return (int(found[1]), int(found[2])) if found else None


def test_next_mistake_steps_to_the_viewers_mistakes_and_a_spectator_sees_everyones(
    client, alice, django_user_model
):
    game = finished_game(alice, target=8)
    analysis = services.analyse_now(game)
    tricks = sorted({(p["hand"], p["trick"]) for p in analysis.plays})
    assert len(tricks) >= 3  # a game to 8 has more than two tricks
    for play in analysis.plays:
        here = (play["hand"], play["trick"])
        play["label"] = "good"
        if here == tricks[1] and play["seat"] == 1:
            play["label"] = "mistake"  # a bot's
        if here == tricks[2] and play["seat"] == 0:
            play["label"] = "blunder"  # alice's
    analysis.save(update_fields=["plays"])
    client.force_login(alice)
    assert next_mistake(replay(client, game)) == tricks[2]  # the bot's is not hers
    at_it = replay(client, game, hand=tricks[2][0], trick=tricks[2][1])
    assert next_mistake(at_it) is None
    assert 'data-replay="next-mistake" aria-disabled="true"' in at_it
    client.force_login(django_user_model.objects.create_user("carol"))
    assert next_mistake(replay(client, game)) == tricks[1]  # a spectator: anyone's
    after = replay(client, game, hand=tricks[1][0], trick=tricks[1][1])
    assert next_mistake(after) == tricks[2]


def test_the_result_panel_loads_the_players_accuracy(client, alice):
    game = finished_game(alice)
    client.force_login(alice)
    table = client.get(game.get_absolute_url()).content.decode()
    summary_url = reverse("analysis_summary", args=[game.pk])
    assert f'hx-get="{summary_url}" hx-trigger="load"' in table
    pending = client.get(summary_url).content.decode()
    assert "Analysis in progress…" in pending and 'hx-trigger="every 3s"' in pending
    analysis, blunder = with_a_blunder(game)
    done = client.get(summary_url).content.decode()
    accuracy = floatformat(analysis.accuracy[0], 0)  # as the page rounds (half up: 40.5 → 41)
    assert f"Your accuracy: {accuracy}%" in done and "1 blunder" in done
    link = f"?hand={blunder['hand']}&amp;trick={blunder['trick']}"
    assert link in done and "See your mistakes in the replay" in done


def test_the_player_page_shows_progress_in_a_query_or_two_however_many_games(
    client, alice, django_user_model
):
    def progress_queries() -> int:
        with CaptureQueriesContext(connection) as without:
            client.get(reverse("player_profile", args=["alice"]))
        return len(without)

    first = finished_game(alice)
    services.analyse_now(first)
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "data-progress" in page and 'data-stat="accuracy"' in page
    assert 'class="trend-line"' in page and "trend-graph-caption" in page
    one = progress_queries()
    for _ in range(3):
        services.analyse_now(finished_game(alice))
    assert progress_queries() == one
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "over the last 4 analysed games" in page
    # a private game's accuracy is the players' own: others do not count it
    services.analyse_now(finished_game(alice, is_public=False))
    client.force_login(django_user_model.objects.create_user("carol"))
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "over the last 4 analysed games" in page
    client.force_login(alice)
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "over the last 5 analysed games" in page


def test_a_game_never_analysed_shows_nothing_and_a_given_up_one_says_so(client, alice):
    game = finished_game(alice)
    GameAnalysis.objects.filter(game=game).delete()
    client.force_login(alice)
    assert "replay-analysis" not in replay(client, game)
    GameAnalysis.objects.create(game=game, attempts=services.MAX_ATTEMPTS)
    assert "could not be completed" in replay(client, game)
