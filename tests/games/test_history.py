"""A player's match history: rows, results, filters, pages, privacy and a constant query count."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.history.games import duration_text
from games.history.player_records import seats_settle
from games.history.records import game_record
from games.models import Game
from games.table import seats as services

from .helpers import play_out

pytestmark = pytest.mark.django_db

BOTS = ["me", "random", "heuristic"]


def with_bots(user, target=10, is_public=True, kinds=BOTS) -> Game:
    return services.game_create(
        creator=user, target=target, seat_kinds=list(kinds), is_public=is_public
    )


def with_people(creator, others, target=10, is_public=True) -> Game:
    game = services.game_create(
        creator=creator, target=target, seat_kinds=["me", "open", "open"], is_public=is_public
    )
    for user in others:
        services.seat_join(game_id=game.pk, user=user, invite_token=game.invite_token)
    game.refresh_from_db()
    return game


def played_out(user, target=3) -> Game:
    return play_out(with_bots(user, target=target, kinds=["me", "random", "random"]), user)


def end(game: Game, winner: int | None, minutes: int = 7) -> Game:
    """Mark a started game finished (won by ``winner``) or, with None, abandoned, and settle
    its seats as the end of a game does (``flow``)."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED if winner is not None else Game.Status.ABANDONED,
        winner_seat=winner,
        finished_at=game.started_at + timedelta(minutes=minutes),
    )
    game.refresh_from_db()
    seats_settle(game)
    return game


def rows(html: str) -> list[tuple[int, str]]:
    return [
        (int(pk), result)
        for pk, result in re.findall(r'data-history-game="(\d+)" data-result="(\w+)"', html)
    ]


def history(client, user, **params):
    response = client.get(f"/players/{user.get_username()}/games/", params)
    assert response.status_code == 200
    return response.content.decode()


def row_html(html: str, game: Game) -> str:
    return re.search(rf'<tr[^>]*data-history-game="{game.pk}".*?</tr>', html, re.S).group(0)


def test_every_game_is_listed_newest_first_with_its_facts(client, alice, bob, carol):
    finished = played_out(alice)
    lost = end(with_people(alice, [bob, carol], target=15), winner=1, minutes=65)
    abandoned = end(with_bots(alice, target=20), winner=None)
    running = with_bots(alice)
    services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "random"])  # waiting
    html = history(client, alice)
    won_or_lost = "won" if finished.winner_seat == 0 else "lost"
    assert rows(html) == [
        (running.pk, "running"),
        (abandoned.pk, "abandoned"),
        (lost.pk, "lost"),
        (finished.pk, won_or_lost),
    ]
    record = game_record(finished)
    tricks = sum(len(hand["tricks"]) for hand in record["hands"])
    row = row_html(html, finished)
    assert f"<td>{len(record['hands'])} / {tricks}</td>" in row
    score_of = r'data-score-of="([^"]+)">(?:<strong>)?[^<]*? (\d+)(?:</strong>)?</span>'
    names = [player["name"] for player in record["players"]]
    expected = zip(names, map(str, record["scores"]), strict=True)
    assert re.findall(score_of, row) == list(expected)
    assert f"<strong>{alice.username} " in row  # the player's own score stands out
    opponents = row.split("data-score-of")[0]
    assert alice.username not in opponents
    assert "Bruno (bot)" in opponents and "Carmen (bot)" in opponents
    assert row.count(">Random<") == 2
    row = row_html(html, lost)
    assert "bob" in row and "carol" in row and "badge" not in row and "1 h 05 min" in row
    assert f'href="/games/{lost.pk}/replay/"' in row
    row = row_html(html, abandoned)
    assert ">Random<" in row and ">Easy<" in row and "7 min" in row


def test_filters_by_result_opponents_and_target(client, alice, bob, carol):
    won = end(with_bots(alice, target=10), winner=0)
    lost = end(with_people(alice, [bob, carol], target=15), winner=2)
    abandoned = end(with_people(alice, [bob, carol], target=10), winner=None)
    running = with_bots(alice, target=20)
    assert rows(history(client, alice, result="won")) == [(won.pk, "won")]
    assert rows(history(client, alice, result="lost")) == [(lost.pk, "lost")]
    assert rows(history(client, alice, result="abandoned")) == [(abandoned.pk, "abandoned")]
    assert rows(history(client, alice, result="running")) == [(running.pk, "running")]
    assert {pk for pk, _ in rows(history(client, alice, opponents="humans"))} == {
        lost.pk,
        abandoned.pk,
    }
    assert {pk for pk, _ in rows(history(client, alice, opponents="bots"))} == {
        won.pk,
        running.pk,
    }
    assert {pk for pk, _ in rows(history(client, alice, target="10"))} == {won.pk, abandoned.pk}
    assert rows(history(client, alice, target="10", opponents="humans", result="abandoned")) == [
        (abandoned.pk, "abandoned")
    ]
    # from bob's side the same game was won
    assert rows(history(client, carol, result="won")) == [(lost.pk, "won")]
    assert rows(history(client, bob, result="lost")) == [(lost.pk, "lost")]
    assert len(rows(history(client, alice, result="nonsense", target="x"))) == 4


def older_link(html: str) -> str:
    return re.search(r'rel="next" href="\?([^"]+)"', html).group(1).replace("&amp;", "&")


def test_twenty_games_a_page_and_the_filters_follow_the_pages(client, alice):
    games = [with_bots(alice, target=10) for _ in range(21)]
    html = history(client, alice)
    assert [pk for pk, _ in rows(html)] == [g.pk for g in reversed(games)][:20]
    page2 = client.get(f"/players/alice/games/?{older_link(html)}").content.decode()
    assert [pk for pk, _ in rows(page2)] == [games[0].pk]
    assert 'rel="next"' not in page2 and 'rel="prev"' in page2
    filtered = history(client, alice, opponents="bots", target=10)
    assert older_link(filtered).startswith("opponents=bots&target=10&after=")
    oldest = history(client, alice, page="last")  # the twenty oldest games
    assert [pk for pk, _ in rows(oldest)] == [g.pk for g in reversed(games[:20])]
    assert 'rel="next"' not in oldest and 'rel="prev"' in oldest


def test_the_query_count_does_not_grow_with_the_games_on_a_page(client, alice, bob, carol):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            history(client, alice)
        return len(queries)

    client.force_login(bob)
    end(with_people(alice, [bob, carol]), winner=0)
    with_bots(alice)
    assert len(rows(history(client, alice))) == 2
    few = count()
    for i in range(5):
        end(with_people(alice, [bob, carol], target=10 + i), winner=i % 3)
        with_bots(alice, kinds=["me", "heuristic", "random"])
    assert len(rows(history(client, alice))) == 12
    assert count() == few, few


def test_private_games_are_listed_only_to_their_players(client, alice, bob, carol, make_user):
    public = with_bots(alice)
    private = with_people(alice, [bob, carol], is_public=False)
    lonely = with_bots(alice, is_public=False)
    everything = {public.pk, private.pk, lonely.pk}
    client.force_login(alice)
    assert {pk for pk, _ in rows(history(client, alice))} == everything
    client.force_login(bob)
    assert {pk for pk, _ in rows(history(client, alice))} == {public.pk, private.pk}
    client.force_login(make_user("dora"))
    assert {pk for pk, _ in rows(history(client, alice))} == {public.pk}
    client.logout()
    assert {pk for pk, _ in rows(history(client, alice))} == {public.pk}


def test_your_own_running_games_are_marked_and_lead_back_to_the_table(client, alice, bob, carol):
    mine = with_people(alice, [bob, carol])
    done = end(with_bots(alice), winner=0)
    client.force_login(bob)
    html = history(client, alice)
    row = row_html(html, mine)
    assert "is-running" in row and f'href="/games/{mine.pk}/"' in row
    assert 'data-action="back-to-table"' in row
    assert 'data-action="back-to-table"' not in row_html(html, done)
    client.force_login(carol)  # seated too: marked as well
    assert "is-running" in row_html(history(client, alice), mine)
    client.logout()
    assert "is-running" not in row_html(history(client, alice), mine)


def test_unknown_players_are_not_found_and_the_profile_links_the_history(client, alice):
    assert client.get("/players/nobody/games/").status_code == 404
    game = with_bots(alice)
    html = client.get(f"/players/{alice.get_username()}/").content.decode()
    assert f'href="/players/{alice.get_username()}/games/"' in html
    assert f'href="/games/{game.pk}/replay/"' in html  # each started game links its replay


def test_duration_text():
    assert duration_text(None) == "\u2013"
    assert duration_text(timedelta(seconds=42)) == "42 s"
    assert duration_text(timedelta(minutes=12, seconds=59)) == "12 min"
    assert duration_text(timedelta(hours=2, minutes=3)) == "2 h 03 min"


def test_the_player_page_shows_private_games_only_to_their_players(
    client, alice, bob, carol, make_user
):
    """Recent games and rating history of /players/<u>/ follow the same rule as the history
    page: a private table (its opponents, scores and replay link) only to who sat at it."""
    from ratings.models import PlayerRating, RatingEvent

    public = with_bots(alice)
    private = with_people(alice, [bob, carol], is_public=False)
    for game in (public, private):
        rating, _ = PlayerRating.objects.get_or_create(user=alice)
        RatingEvent.objects.create(
            rating=rating,
            game=game,
            seat=0,
            rank=1,
            score=10,
            mu_before=25,
            sigma_before=8,
            mu_after=27,
            sigma_after=7,
        )

    def shown(viewer):
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        html = client.get("/players/alice/").content.decode()
        return {pk for pk in (public.pk, private.pk) if f"/games/{pk}/replay/" in html}, html

    for viewer in (alice, bob):
        assert shown(viewer)[0] == {public.pk, private.pk}
    for viewer in (make_user("dora"), None):
        games, html = shown(viewer)
        assert games == {public.pk} and "carol" not in html and "bob" not in html


def test_a_game_that_ends_settles_its_seats_and_the_players_stats_once(client, alice, bob, carol):
    """The history and the profile read what the end of a game writes: each seat's outcome
    and each person's counts (a resigned game counts as abandoned, not played)."""
    from games.models import PlayerStats, Seat
    from games.table import flow

    game = played_out(alice)
    seat = Seat.objects.get(game=game, user=alice)
    won = game.winner_seat == seat.number
    assert seat.outcome == ("won" if won else "lost") and seat.started_at == game.started_at
    assert seat.with_bots and seat.target == game.target
    stats = PlayerStats.objects.get(user=alice)
    assert (stats.finished, stats.won, stats.abandoned) == (1, int(won), 0)
    seats_settle(Game.objects.get(pk=game.pk))  # twice changes nothing
    assert PlayerStats.objects.get(user=alice).finished == 1
    html = client.get("/players/alice/").content.decode()
    assert 'data-stat="played">1<' in html
    left = with_people(alice, [bob, carol])
    flow.resign(game_id=left.pk, user=bob)
    assert set(Seat.objects.filter(game=left).values_list("outcome", flat=True)) == {"abandoned"}
    assert PlayerStats.objects.get(user=bob).abandoned == 1
    assert rows(history(client, alice, result="abandoned")) == [(left.pk, "abandoned")]


def test_the_player_page_says_which_games_were_won_and_lost(client, alice, bob, carol):
    lost = end(with_people(alice, [bob, carol], target=15), winner=1, minutes=5)
    running = with_bots(alice)
    html = client.get(f"/players/{alice.get_username()}/").content.decode()
    row = re.search(rf'<li class="game-row" data-game="{lost.pk}".*?</li>', html, re.S)[0]
    assert 'data-result="lost"' in row and ">Lost<" in row
    row = re.search(rf'<li class="game-row" data-game="{running.pk}".*?</li>', html, re.S)[0]
    assert 'data-result="running"' in row
    html = client.get(f"/players/{bob.get_username()}/").content.decode()
    row = re.search(rf'<li class="game-row" data-game="{lost.pk}".*?</li>', html, re.S)[0]
    assert 'data-result="won"' in row and ">Won<" in row  # the same game, from bob's side


@pytest.mark.parametrize(
    "kinds, winner",
    [
        (["me", "open", "open"], 0),
        (["me", "open", "open"], 2),
        (["me", "open", "open"], None),  # abandoned
        (["me", "random", "open"], 1),  # a bot won
        (["me", "random", "open"], 2),
        (["me", "random", "random"], None),
    ],
)
def test_settling_writes_each_seats_outcome_and_each_persons_counts(
    alice, bob, carol, kinds, winner
):
    """Every seat's outcome (won, lost, abandoned) and every person's counts, for games won
    by a person or a bot, or abandoned; people who had stats already keep them; once only."""
    from games.models import PlayerStats, Seat

    game = services.game_create(creator=alice, target=10, seat_kinds=kinds)
    for person in [bob, carol][: kinds.count("open")]:
        services.seat_join(game_id=game.pk, user=person, invite_token=game.invite_token)
    PlayerStats.objects.update_or_create(user=alice, defaults={"finished": 4, "won": 2})
    game = end(Game.objects.get(pk=game.pk), winner)
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    for seat in seats:
        expected = "abandoned" if winner is None else "won" if seat.number == winner else "lost"
        assert seat.outcome == expected
    before = {"finished": 4, "won": 2, "abandoned": 0}
    for seat in seats:
        if seat.user_id is None:
            continue
        stats = PlayerStats.objects.get(user_id=seat.user_id)
        start = before if seat.user_id == alice.pk else dict.fromkeys(before, 0)
        assert stats.finished == start["finished"] + (winner is not None)
        assert stats.won == start["won"] + (seat.number == winner)
        assert stats.abandoned == start["abandoned"] + (winner is None)

    def counts():
        rows = PlayerStats.objects.order_by("user")
        return list(rows.values_list("finished", "won", "abandoned"))

    settled = counts()
    seats_settle(game)  # once: a second settling changes nothing
    assert counts() == settled
