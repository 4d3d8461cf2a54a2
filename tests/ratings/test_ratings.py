"""Ratings: OpenSkill updates per finished game, recomputation, leaderboards and the admin."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from openskill.models import PlackettLuce

from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from ratings.models import (
    Leaderboard,
    LeaderboardExclusion,
    PlayerRating,
    RatingEvent,
    RatingQueue,
)
from ratings.queue import queued_rate
from ratings.recompute import ratings_recompute
from ratings.services import game_rate, ranks_of, season_close
from tests.games.helpers import serve_due

pytestmark = pytest.mark.django_db


def finish(creator, kinds, others=(), target=3) -> Game:
    """Play a game to its end, people playing their first card; return it (rated)."""
    game = services.game_create(creator=creator, target=target, seat_kinds=kinds)
    for user in others:
        services.seat_join(game_id=game.pk, user=user)
    for _move in range(400):  # a game to 3 ends within a hand or two
        if Game.objects.get(pk=game.pk).status != Game.Status.IN_PROGRESS:
            break
        if not serve_due(game.pk):
            fresh = Game.objects.get(pk=game.pk)
            loaded = game_load(fresh)
            seat = loaded.seats[loaded.state.to_play]
            card = CARD_CODES[loaded.state.hands[seat.number][0]]
            flow.play_card(game_id=game.pk, user=seat.user, card=card)
    else:
        raise AssertionError("the game did not end")
    serve_due(game.pk)  # its aftermath queues it
    queued_rate()  # and the ratings lane rates it
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db(transaction=True)
def test_games_are_rated_by_the_runner_once_their_last_move_commits(django_user_model):
    """Off the move's path: the last card schedules the game's aftermath in its own
    transaction (so it survives the process that played it), a runner queues it, and a
    ratings lane rates it."""
    alice = django_user_model.objects.create_user("al")
    game = services.game_quick_play(user=alice, bot="random", target=3)
    for _move in range(400):  # a game to 3 ends within a hand or two
        if not Game.objects.get(pk=game.pk).is_running:
            break
        loaded = game_load(Game.objects.get(pk=game.pk))
        if loaded.state.to_play == 0:
            card = CARD_CODES[loaded.state.hands[0][0]]
            flow.play_card(game_id=game.pk, user=alice, card=card)
        else:
            serve_due(game.pk)
    else:
        raise AssertionError("the game did not end")
    ended = Game.objects.get(pk=game.pk)
    assert ended.due_at is not None and not RatingEvent.objects.filter(game=game).exists()
    serve_due(game.pk)  # the aftermath queues it: the runner never waits for the rating lock
    assert RatingQueue.objects.filter(game=game).exists()
    assert not RatingEvent.objects.filter(game=game).exists()
    assert queued_rate() == 1  # a ratings lane rates it
    assert not RatingQueue.objects.exists()
    assert RatingEvent.objects.filter(game=game).count() == 3
    assert PlayerRating.objects.get(user=alice).games == 1
    assert Game.objects.get(pk=game.pk).due_at is None


def test_ranks_put_the_winner_first_then_points_with_ties_shared():
    assert ranks_of([10, 4, 4], winner=0) == [1, 2, 2]
    assert ranks_of([3, 10, 7], winner=1) == [3, 1, 2]
    assert ranks_of([9, 9, 2], winner=1) == [2, 1, 3]  # the winner ranks first even on a tie
    assert ranks_of([2, 2, 2], winner=None) == [1, 1, 1]


def test_a_finished_game_moves_ratings_exactly_as_openskill_does(django_user_model):
    alice, bob, carol = (django_user_model.objects.create_user(n) for n in ("al", "bo", "ca"))
    game = finish(alice, ["me", "open", "open"], others=(bob, carol))
    events = list(RatingEvent.objects.filter(game=game).order_by("seat"))
    assert [e.seat for e in events] == [0, 1, 2]
    model = PlackettLuce()
    scores = list(game.seats.order_by("number").values_list("score", flat=True))
    expected = model.rate(
        [[model.rating()] for _ in range(3)], ranks=ranks_of(scores, game.winner_seat)
    )
    for event, team in zip(events, expected, strict=True):
        assert event.mu_after == pytest.approx(team[0].mu)
        assert event.sigma_after == pytest.approx(team[0].sigma)
        assert event.mu_before == 25.0
    winner = PlayerRating.objects.get(user=game.seats.get(number=game.winner_seat).user)
    assert winner.games == 1 and winner.wins == 1 and winner.mu > 25.0
    assert game_rate(game_id=game.pk) == []  # rating twice changes nothing
    assert RatingEvent.objects.filter(game=game).count() == 3


def test_bots_are_rated_too(django_user_model):
    alice = django_user_model.objects.create_user("al")
    finish(alice, ["me", "random", "random"])
    bot = PlayerRating.objects.get(bot="random")
    assert bot.games == 2  # two seats in one game


def test_recomputing_from_history_is_idempotent_and_equals_the_incremental_result(
    django_user_model,
):
    users = [django_user_model.objects.create_user(f"u{i}") for i in range(3)]
    for i in range(4):
        finish(users[i % 3], ["me", "open", "heuristic"], others=(users[(i + 1) % 3],))
    finish(users[0], ["me", "random", "heuristic"])
    finish(users[1], ["me", "careful", "careful"])  # one rating in two seats
    left = services.game_create(creator=users[2], target=10, seat_kinds=["me", "open", "random"])
    services.seat_join(game_id=left.pk, user=users[0])
    flow.resign(game_id=left.pk, user=users[0])  # abandoned: the leaver ranks last
    serve_due(left.pk)
    queued_rate()

    def snapshot():
        return sorted(
            (r.user_id or 0, r.bot, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins)
            for r in PlayerRating.objects.all()
        )

    def moves(e):
        return [round(x, 9) for x in (e.mu_before, e.sigma_before, e.mu_after, e.sigma_after)]

    def events():
        return sorted(
            (e.game_id, e.seat, e.rating_id, e.rank, e.score, e.won, *moves(e))
            for e in RatingEvent.objects.all()
        )

    incremental, incremental_events = snapshot(), events()
    assert len(incremental_events) == 21
    assert ratings_recompute() == 7
    assert snapshot() == incremental and events() == incremental_events
    ratings_recompute()
    assert snapshot() == incremental and events() == incremental_events


def make_board(**fields) -> Leaderboard:
    return Leaderboard.objects.create(name="Main", slug="main", **fields)


def test_the_leaderboard_page_ranks_players_and_costs_a_bounded_number_of_queries(
    client, django_user_model
):
    board = make_board(min_games=1)

    def page_queries():
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/leaderboards/main/")
        assert response.status_code == 200
        return len(queries), response.content.decode()

    users = [django_user_model.objects.create_user(f"p{i}") for i in range(6)]
    finish(users[0], ["me", "open", "open"], others=users[1:3])
    few, html = page_queries()
    for i in range(3, 6):
        finish(users[i], ["me", "random", "heuristic"])
    many, html = page_queries()
    assert many == few
    assert html.count('data-rank="') == 6 + 2  # six people and two bot levels
    client.force_login(users[4])
    assert 'class="you"' in client.get("/leaderboards/main/").content.decode()
    board.listed = Leaderboard.Listed.PEOPLE
    board.save()
    assert client.get("/leaderboards/main/").content.decode().count('data-rank="') == 6
    board.listed = Leaderboard.Listed.BOTS
    board.save()
    html = client.get("/leaderboards/main/").content.decode()
    assert html.count('data-rank="') == 2 and "Random" in html and 'class="you"' not in html


def test_boards_filter_games_and_exclusions(client, django_user_model):
    alice, bob, carol = (django_user_model.objects.create_user(n) for n in ("al", "bo", "ca"))
    finish(alice, ["me", "open", "open"], others=(bob, carol), target=3)
    finish(alice, ["me", "random", "random"], target=2)
    humans = make_board(opponents=Leaderboard.Opponents.HUMANS_ONLY)
    html = client.get("/leaderboards/main/").content.decode()
    assert "Bot (random)" not in html and html.count('data-rank="') == 3
    LeaderboardExclusion.objects.create(leaderboard=humans, user=bob, reason="cheating")
    html = client.get("/leaderboards/main/").content.decode()
    assert "bo</a>" not in html and "cheating" not in html
    humans.opponents = Leaderboard.Opponents.ANY
    humans.target = 2
    humans.save()
    html = client.get("/leaderboards/main/").content.decode()
    assert html.count('data-rank="') == 2  # alice and the random bot
    humans.season_start = timezone.now()
    humans.save()
    assert 'data-rank="' not in client.get("/leaderboards/main/").content.decode()


def test_closing_a_season_freezes_its_standings(client, django_user_model):
    alice = django_user_model.objects.create_user("al")
    finish(alice, ["me", "random", "random"])
    board = make_board()
    assert season_close(board=board) == 2

    def table():
        """The standings, without "last played" (now, a second ago: the clock moves)."""
        html = client.get("/leaderboards/main/").content.decode()
        html = html[html.index("<table") : html.index("</table>")]
        return re.sub(r"<td>(now|[^<]* ago)</td>", "<td>when</td>", html)

    before = table()
    finish(alice, ["me", "random", "random"])
    assert (
        table() == before
        and "Final standings" in client.get("/leaderboards/main/").content.decode()
    )


def test_admin_actions_for_staff_only_and_logged(client, django_user_model):
    from django.contrib.admin.models import LogEntry

    staff = django_user_model.objects.create_superuser("boss", password="pw")
    player = django_user_model.objects.create_user("pl", password="pw")
    game = finish(player, ["me", "random", "random"])
    board = make_board()
    client.force_login(player)
    assert client.get("/admin/ratings/leaderboard/").status_code == 302  # not staff: login
    client.force_login(staff)
    for url in [
        "/admin/ratings/leaderboard/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/game/?status=finished&players=bots&q=pl",
        f"/admin/auth/user/{player.pk}/change/",
        "/admin/ratings/playerrating/",
    ]:
        assert client.get(url).status_code == 200, url
    response = client.post(
        "/admin/ratings/leaderboard/",
        {"action": "recompute_standings", "_selected_action": [board.pk]},
    )
    assert response.status_code == 302
    # Queued for the table runners, which serve it once idle (here: by hand).
    from games.table.runner import idle_work
    from ratings.models import RatingsRecompute

    RatingEvent.objects.all().delete()
    assert RatingsRecompute.objects.get().finished_at is None
    idle_work()
    done = RatingsRecompute.objects.get()
    assert done.finished_at is not None and done.games == 1
    assert RatingEvent.objects.filter(game=game).count() == 3
    assert client.get("/admin/ratings/ratingsrecompute/").status_code == 200
    client.post(
        "/admin/ratings/leaderboard/", {"action": "close_season", "_selected_action": [board.pk]}
    )
    assert Leaderboard.objects.get(pk=board.pk).closed_at is not None
    running = services.game_quick_play(user=player)
    client.post(
        "/admin/games/game/", {"action": "mark_abandoned", "_selected_action": [running.pk]}
    )
    assert Game.objects.get(pk=running.pk).status == Game.Status.ABANDONED
    messages = list(LogEntry.objects.values_list("change_message", flat=True))
    assert any("Closed the season" in m for m in messages)
    assert any("abandoned" in m for m in messages)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "seed" not in page.lower()
    first = game.hands.get(number=1).tricks.get(number=1)
    cards = " ".join(first.plays.order_by("order").values_list("card", flat=True))
    assert f"<td>1</td><td>1</td><td>{first.leader}</td><td>{cards}</td>" in page


def test_a_player_who_leaves_ranks_last_and_the_game_ends_for_all(client, django_user_model):
    alice, bob, carol = (django_user_model.objects.create_user(n) for n in ("al", "bo", "ca"))
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_join(game_id=game.pk, user=carol)
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/resign/", follow=True)
    assert "bo left the game." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.abandoned_by == 1
    game_rate(game_id=game.pk)
    ranks = dict(RatingEvent.objects.filter(game=game).values_list("seat", "rank"))
    assert ranks == {0: 1, 1: 3, 2: 1}
    client.force_login(carol)
    client.post(f"/games/{game.pk}/resign/")
    assert Game.objects.get(pk=game.pk).abandoned_by == 1  # a finished game cannot be left


def test_ranks_put_a_player_who_left_last():
    assert ranks_of([5, 9, 1], winner=None, leavers={1}) == [1, 3, 2]


def test_the_profile_shows_the_rating_and_its_history(client, django_user_model):
    alice = django_user_model.objects.create_user("al")
    game = finish(alice, ["me", "random", "random"])
    html = client.get("/players/al/").content.decode()
    rating = PlayerRating.objects.get(user=alice)
    assert f'data-stat="rating">{rating.display}' in html and "provisional" in html
    assert f"/games/{game.pk}/replay/" in html


def standings_snapshot():
    from ratings.models import Standing

    fields = ["leaderboard_id", "rating_id", "user_id", "bot", "mu", "sigma", "ordinal"]
    fields += ["games", "wins", "last_played"]
    return sorted(Standing.objects.values_list(*fields))


def test_standings_kept_game_by_game_equal_the_standings_rebuilt_from_history(
    django_user_model, client
):
    """Every board (all time, a season, a target, people only, with bots) counts each rated
    game as it is rated; a rebuild from the rating events, and the admin's recompute, give
    exactly the same rows, and the pages read them."""
    from ratings.standings import standings_rebuild

    users = [django_user_model.objects.create_user(f"u{i}") for i in range(4)]
    boards = [
        make_board(),
        Leaderboard.objects.create(name="People", slug="people", opponents="humans"),
        Leaderboard.objects.create(name="Bots", slug="bots", opponents="bots", target=2),
    ]
    finish(users[0], ["me", "open", "open"], others=users[1:3])
    finish(users[3], ["me", "random", "random"], target=2)
    season = Leaderboard.objects.create(name="Season", slug="season", season_start=timezone.now())
    boards.append(season)
    finish(users[1], ["me", "open", "heuristic"], others=[users[2]], target=2)
    finish(users[0], ["me", "open", "open"], others=[users[3], users[2]])
    finish(users[2], ["me", "random", "careful"], target=2)
    kept = standings_snapshot()
    assert {row[0] for row in kept} == {board.pk for board in boards}
    assert standings_rebuild() == len(kept)
    assert standings_snapshot() == kept
    ratings_recompute()
    assert standings_snapshot() == kept
    from ratings.models import Standing

    season_games = Standing.objects.filter(leaderboard=season, user=users[0]).get().games
    assert season_games == 1  # the game before the season began does not count
    html = client.get("/leaderboards/people/").content.decode()
    assert html.count('data-rank="') == 4 and "Bot (" not in html


def test_leaderboard_pages_are_slices_with_ranks_and_survive_bad_input(client, django_user_model):
    from ratings import selectors

    alice = django_user_model.objects.create_user("al")
    for _ in range(2):
        finish(alice, ["me", "random", "heuristic"])
    make_board()
    for url in [
        "?page=abc",
        "?page=-2",
        "?page=999",
        "?after=x~y",
        "?before=1e400~2",
        "?page=last",
    ]:
        response = client.get(f"/leaderboards/main/{url}")
        assert response.status_code == 200, url
        html = response.content.decode()
        assert html.count('data-rank="') == 3, url
        assert ("does not exist" in html) == (url != "?page=last"), url
    page = selectors.standings_page(Leaderboard.objects.get(slug="main"))
    assert [row["rank"] for row in page.rows] == [1, 2, 3] and page.total == 3
